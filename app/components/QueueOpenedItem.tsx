import { Fragment, type ReactNode } from 'react';
import { Form } from 'react-router';
import { useTranslation } from '../lib/i18n.ts';
import { ConfirmDecision, HeldBy } from './ConsoleQueue.tsx';

/** One line of what an opened item says: a label, its value and, for tests that read it, a test id. */
export type OpenedFact = [label: string, value: ReactNode, testid?: string];

/**
 * The item a moderator opened (and holds), the same card on every queue: its title, who holds it, what it says, and
 * either the decision form (the queue's `fields` as hidden inputs, its own controls as children) or, once a decision
 * button was pressed, the confirmation of what will happen. The card keeps to the page's width, so on a phone its
 * controls follow one another and nothing lies over the buttons.
 */
export function QueueOpenedItem({ testid, title, held, me, media, facts, fields, confirm, confirmText, at, children }: {
  testid: string;
  title: ReactNode;
  held: { claimed_by: number | null; claimed_until: string | null };
  me: number;
  /** A picture of the item (a photo), above its facts. */
  media?: ReactNode;
  facts: OpenedFact[];
  fields: Record<string, string | number>;
  confirm: Record<string, string> | undefined;
  confirmText: (confirm: Record<string, string>) => string;
  /** Where the item is shown; "Cancel" leads back there, with the item still open. */
  at: { queue: string; page: number; open: string | number };
  children: ReactNode;
}) {
  const { t } = useTranslation();
  return (
    <section className="card mb-3 queue-opened" aria-labelledby={testid} data-testid={testid}>
      <div className="card-body">
        <h2 className="h5 text-break" id={testid}>{title}</h2>
        <p className="mb-2"><HeldBy by={held.claimed_by} until={held.claimed_until} me={me} /></p>
        {media}
        <dl className="row small mb-2">
          {facts.map(([label, value, id]) => (
            <Fragment key={label}>
              <dt className="col-sm-3">{label}</dt>
              <dd className="col-sm-9 text-break" data-testid={id}>{value}</dd>
            </Fragment>
          ))}
        </dl>
        {confirm ? <ConfirmDecision back={openedHref(at)} fields={confirm} text={confirmText(confirm)} /> : (
          <Form method="post" aria-label={t('console.queues.decide')}>
            <input type="hidden" name="intent" value="decide" />
            {Object.entries(fields).map(([name, value]) => <input key={name} type="hidden" name={name} value={value} />)}
            {children}
          </Form>
        )}
      </div>
    </section>
  );
}

/** The address of a queue's page `page` with item `open` opened. */
const openedHref = ({ queue, page, open }: { queue: string; page: number; open: string | number }) =>
  `/console/queues/${queue}?${page > 1 ? `page=${page}&` : ''}open=${encodeURIComponent(String(open))}`;

/** What the last post did: the decision's outcome (worded by the queue, with its statement's number) or the refusal. */
export function QueueAlerts({ done, decision, error }: { done: string | null; decision?: number | null; error: string | undefined }) {
  return (
    <>
      {done !== null && <div className="alert alert-success" role="status" data-testid="queue-done" data-decision={decision ?? undefined}>{done}</div>}
      {error && <div className="alert alert-danger" role="alert" data-testid="queue-error">{error}</div>}
    </>
  );
}
