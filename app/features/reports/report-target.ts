import type { ReportKind } from '#common/reports.ts';

/** What is reported: a member, one of their photos or a message they sent. */
export interface ReportTarget {
  profileId: number;
  name: string;
  kind: ReportKind;
  contentId?: number | null;
}

/** Where the report link of a signed-in member goes without JavaScript: the same form as a page. */
export const reportHref = (target: ReportTarget) =>
  `/report?profile=${target.profileId}&kind=${target.kind}${target.contentId ? `&id=${target.contentId}` : ''}`;
