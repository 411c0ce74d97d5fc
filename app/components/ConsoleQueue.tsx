import { useEffect, useRef, type ReactNode } from 'react';
import { Form, Link, useNavigation } from 'react-router';
import type { Language } from '#common/languages.ts';
import { useTranslation } from '../lib/i18n.ts';
import { formatDateTime } from '../lib/format.ts';

/** Who holds a queue item and until when: the staff member themself, another one (by id), or nobody. */
export function HeldBy({ by, until, me }: { by: number | null; until: string | null; me: number }) {
  const { t, i18n: { language } } = useTranslation();
  if (by === null || until === null) return <span className="text-body-secondary">{t('console.queues.free')}</span>;
  const time = formatDateTime(until, language as Language);
  return by === me
    ? <span className="badge text-bg-success text-wrap text-start" data-testid="held-by-me">{t('console.queues.held_by_you', { time })}</span>
    : <span className="badge text-bg-warning text-wrap text-start" data-testid="held-by-other">{t('console.queues.held_by', { id: by, time })}</span>;
}

/** The button that opens (claims) an item: a form, so that it works without JavaScript. */
export function ClaimButton({ id, field = 'id', label }: { id: string | number; field?: string; label: string }) {
  const busy = useNavigation().state !== 'idle';
  return (
    <Form method="post">
      <input type="hidden" name="intent" value="claim" />
      <input type="hidden" name={field} value={id} />
      <button type="submit" className="btn btn-outline-primary btn-sm text-nowrap" disabled={busy} data-testid="queue-open">{label}</button>
    </Form>
  );
}

/**
 * What will happen, said before it happens: the same fields again with confirm=1, "Yes" focused (access key Y), and a
 * way back that changes nothing.
 */
export function ConfirmDecision({ text, fields, back }: { text: string; fields: Record<string, string>; back: string }) {
  const { t } = useTranslation();
  const busy = useNavigation().state !== 'idle';
  const yes = useRef<HTMLButtonElement>(null);
  // Focused once the page has settled (a disabled button cannot take the focus), so Enter confirms.
  useEffect(() => {
    if (!busy) yes.current?.focus();
  }, [busy]);
  return (
    <Form method="post" className="alert alert-warning" role="alertdialog" aria-labelledby="queue-confirm-text" data-testid="queue-confirm">
      <p id="queue-confirm-text" className="mb-2">{text}</p>
      {fields.ground && fields.action !== 'dismiss' && (
        <p className="mb-2"><strong>{t('console.queues.ground')}:</strong> {t(`statements.grounds.${fields.ground}`)}</p>
      )}
      <input type="hidden" name="confirm" value="1" />
      {Object.entries(fields).map(([k, v]) => <input key={k} type="hidden" name={k} value={v} />)}
      <div className="d-flex flex-wrap gap-2">
        <button type="submit" className="btn btn-danger btn-sm" disabled={busy} ref={yes} accessKey="y" data-testid="queue-confirm-yes">
          {t('console.queues.confirm')}
        </button>
        <Link to={back} className="btn btn-outline-secondary btn-sm">{t('console.queues.cancel')}</Link>
      </div>
    </Form>
  );
}

/** The letter each decision's button answers to (with the browser's access-key modifier). */
export const ACCESS_KEYS: Record<string, string> = {
  dismiss: 'd', remove_photo: 'r', remove_about: 'r', hide_message: 'h', ban: 'b', approve: 'a', remove: 'r', reject: 'r', reversed: 'r', confirmed: 'c',
};

/**
 * A queue's table, oldest first: "received", the queue's own columns, who holds the item and its open button (the
 * rows, children, fill them in that order); without items, the queue says it is empty.
 */
export function QueueTable({ testid, columns, empty, children }: { testid: string; columns: string[]; empty: boolean; children: ReactNode }) {
  const { t } = useTranslation();
  if (empty) return <p data-testid="queue-empty">{t('console.queues.empty')}</p>;
  return (
    <div className="table-responsive">
      <table className="table table-sm table-striped align-middle" data-testid={testid}>
        <caption className="visually-hidden">{t('console.queues.caption')}</caption>
        <thead>
          <tr>
            <th scope="col" aria-sort="ascending">{t('console.queues.received')}</th>
            {columns.map((c) => <th key={c} scope="col">{c}</th>)}
            <th scope="col">{t('console.queues.held')}</th>
            <th scope="col"><span className="visually-hidden">{t('console.queues.open')}</span></th>
          </tr>
        </thead>
        <tbody>{children}</tbody>
      </table>
    </div>
  );
}

/** The ground a restriction stands on, from the catalogue (the statement of reasons names it). */
export function GroundField({ id, grounds, defaultValue }: { id: string; grounds: readonly string[]; defaultValue: string }) {
  const { t } = useTranslation();
  return (
    <div className="mb-2">
      <label htmlFor={id} className="form-label">{t('console.queues.ground')}</label>
      <select id={id} name="ground" className="form-select form-select-sm" defaultValue={defaultValue}>
        {grounds.map((g) => <option key={g} value={g}>{t(`statements.grounds.${g}`)}</option>)}
      </select>
    </div>
  );
}

/** The facts the statement of reasons gives the member. */
export function FactsField({ id }: { id: string }) {
  const { t } = useTranslation();
  return (
    <div className="mb-2">
      <label htmlFor={id} className="form-label">{t('console.queues.facts')}</label>
      <textarea id={id} name="facts" className="form-control form-control-sm" rows={2} maxLength={3000} />
    </div>
  );
}

/** The buttons that do not restrict anyone look quiet; the others warn. */
const TONE: Record<string, string> = { dismiss: 'btn-outline-secondary', confirmed: 'btn-outline-secondary', approve: 'btn-outline-success' };

/**
 * One button per decision that fits the item (posted as `name`, worded by `labels` + the decision), each with its
 * access key, and a line that names the keys on this card.
 */
export function ActionButtons({ actions, name = 'action', labels = 'console.queues.action_' }: { actions: readonly string[]; name?: string; labels?: string }) {
  const { t } = useTranslation();
  const busy = useNavigation().state !== 'idle';
  const keys = actions.map((a) => `${ACCESS_KEYS[a].toUpperCase()} ${t(`${labels}${a}`)}`).join(', ');
  return (
    <>
      <div className="d-flex flex-wrap gap-2" role="group" aria-label={t('console.queues.decide')}>
        {actions.map((a) => (
          <button
            key={a} type="submit" name={name} value={a} accessKey={ACCESS_KEYS[a]} disabled={busy} data-testid={`decide-${a}`}
            className={`btn btn-sm ${TONE[a] ?? 'btn-outline-danger'}`}
          >
            {t(`${labels}${a}`)}
          </button>
        ))}
      </div>
      <p className="form-text mb-0">{t('console.queues.keys_help', { keys })}</p>
    </>
  );
}

/**
 * Previous and next pages of a list, as links that keep the place in the address: numbered pages (50 items a page) or,
 * where a list pages from an item on (keyset), the two addresses and no number.
 */
export function QueuePager(props: { page: number; hasMore: boolean } | { prev: string | null; next: string | null }) {
  const { t } = useTranslation();
  const to = (n: number) => (n > 1 ? `?page=${n}` : '?');
  const { prev, next, page } = 'page' in props
    ? { prev: props.page > 1 ? to(props.page - 1) : null, next: props.hasMore ? to(props.page + 1) : null, page: props.page }
    : { ...props, page: null };
  if (prev === null && next === null) return null;
  return (
    <nav aria-label={t('console.queues.pages')} className="d-flex flex-wrap align-items-center gap-2" data-testid="queue-pager">
      {prev !== null && <Link to={prev} className="btn btn-outline-secondary btn-sm" rel="prev" data-testid="queue-prev">{t('console.queues.previous')}</Link>}
      {page !== null && <span className="small text-body-secondary" aria-current="page">{t('console.queues.page', { page })}</span>}
      {next !== null && <Link to={next} className="btn btn-outline-secondary btn-sm" rel="next" data-testid="queue-next">{t('console.queues.next')}</Link>}
    </nav>
  );
}
