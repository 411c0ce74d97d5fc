import type { ReportReason, Ground } from '#common/reports.ts';

/** The ground a report's reason suggests, preselected in the decision form (the moderator may pick another). */
export const GROUND_FOR_REASON: Record<ReportReason, Ground> = {
  fake: 'terms_fake_profile', scam: 'terms_scam', harassment: 'terms_harassment', sexual: 'terms_sexual_content',
  minor: 'terms_minor', hate: 'terms_hate', spam: 'terms_spam', other: 'terms_general',
};

/** A posted form's text fields. */
export async function formFields(request: Request): Promise<Record<string, string>> {
  return Object.fromEntries([...(await request.formData()).entries()].filter(([, v]) => typeof v === 'string')) as Record<string, string>;
}

/** A positive 32-bit id from a form or query value, or null. */
export const idOf = (value: string | null | undefined) => (value && /^\d{1,10}$/.test(value) && Number(value) <= 2_147_483_647 && Number(value) > 0 ? Number(value) : null);

/** The queue page a console address asks for (?page=n, from 1); the first page otherwise. */
export const pageOf = (request: Request) => idOf(new URL(request.url).searchParams.get('page')) ?? 1;

/** Where an item opened from page `page` of a queue is shown: that page, with the item open. */
export const openedAt = (queue: string, request: Request, open: string | number) => {
  const page = pageOf(request);
  return `/console/queues/${queue}?${page > 1 ? `page=${page}&` : ''}open=${encodeURIComponent(String(open))}`;
};
