import { data, Form, Link, useActionData, useLoaderData, useNavigation } from 'react-router';
import { FLAG_KINDS } from '#common/moderation-flags.ts';
import { consoleErrorText, consoleLanguage, orForbidden, requireConsoleStaff } from '#server/http/console-pages.server.ts';
import { idOf } from '#server/http/console-queues.server.ts';
import type { Route } from './+types/console-flags';
import { requestContext } from '../context.ts';
import { useTranslation } from '../lib/i18n.ts';
import { pageMeta } from '../lib/seo.ts';
import { formatDateTime } from '../lib/format.ts';
import { QueuePager } from '../components/ConsoleQueue.tsx';

export function meta({ matches }: Route.MetaArgs) {
  return pageMeta(matches, { titleKey: 'console.flags.title', noindex: true });
}

type Place = { sort: 'oldest' | 'newest'; after: number | null; before: number | null };

/** The flags list's address for a place in it (oldest first and the first page are the defaults), with a flag open. */
const placeHref = ({ sort, after, before }: Place, open?: number) => {
  const query = new URLSearchParams();
  if (sort === 'newest') query.set('sort', sort);
  if (after !== null) query.set('after', String(after));
  if (before !== null) query.set('before', String(before));
  if (open !== undefined) query.set('open', String(open));
  return `?${query}`;
};

/**
 * The members queue's automatic flags, 50 a page, oldest (default) or newest first (`sort`); a page starts after or
 * ends before a flag of the page next to it (`after`, `before`). `open` shows one flag's evidence, the messages'
 * excerpts: that opening is audited, so it happens only when asked for.
 */
export async function loader({ context, request }: Route.LoaderArgs) {
  const ctx = context.get(requestContext);
  const staff = await requireConsoleStaff(ctx);
  const search = new URL(request.url).searchParams;
  const place: Place = {
    sort: search.get('sort') === 'newest' ? 'newest' : 'oldest',
    after: idOf(search.get('after')),
    before: search.has('after') ? null : idOf(search.get('before')),
  };
  const queue = await orForbidden(ctx.services.console.flags(staff, { order: place.sort, after: place.after ?? undefined, before: place.before ?? undefined }));
  const openId = idOf(search.get('open'));
  const opened = openId === null ? null : await orForbidden(ctx.services.console.flag(staff, openId, { ip: ctx.clientAddress }).catch((e: { status?: number }) => {
    if (e.status === 404) return null;
    throw e;
  }));
  return { ...queue, opened, place };
}

export async function action({ context, request }: Route.ActionArgs) {
  const ctx = context.get(requestContext);
  const staff = await requireConsoleStaff(ctx);
  const id = idOf(String((await request.formData()).get('id') ?? ''));
  const lang = await consoleLanguage(ctx);
  if (id === null) return data({ error: ctx.translator.t(lang, 'errors.invalid_input'), done: false }, 400);
  try {
    await ctx.services.console.resolveFlag(staff, id, { ip: ctx.clientAddress });
    return { error: null, done: true };
  } catch (error) {
    return data({ error: consoleErrorText(ctx, lang, error, []).message, done: false }, 400);
  }
}

export default function ConsoleFlags() {
  const { t, i18n: { language: lang } } = useTranslation();
  const { flags, counts, opened, place, prev, next } = useLoaderData<typeof loader>();
  const reply = useActionData<typeof action>();
  const busy = useNavigation().state !== 'idle';
  return (
    <>
      <h1 className="h3">{t('console.flags.title')}</h1>
      <p className="text-body-secondary">{t('console.flags.intro')}</p>
      <ul className="list-inline" aria-label={t('console.flags.counts')} data-testid="flag-counts">
        {FLAG_KINDS.map((kind) => (
          <li key={kind} className="list-inline-item"><span className="badge text-bg-secondary">{t(`console.flags.kind_${kind}`)}: {counts[kind]}</span></li>
        ))}
      </ul>
      <nav aria-label={t('console.flags.sort')} className="nav nav-pills mb-3" data-testid="flag-sort">
        {(['oldest', 'newest'] as const).map((sort) => (
          <Link
            key={sort} to={placeHref({ sort, after: null, before: null })} data-testid={`flag-sort-${sort}`}
            className={`nav-link${place.sort === sort ? ' active' : ''}`} aria-current={place.sort === sort ? 'page' : undefined}
          >
            {t(`console.flags.sort_${sort}`)}
          </Link>
        ))}
      </nav>
      {reply?.done && <div className="alert alert-success" role="status" data-testid="flag-resolved">{t('console.flags.resolved')}</div>}
      {reply?.error && <div className="alert alert-danger" role="alert">{reply.error}</div>}
      {opened && (
        <section className="card mb-3" aria-labelledby="flag-evidence" data-testid="flag-evidence">
          <div className="card-body">
            <h2 className="h5" id="flag-evidence">
              {t('console.flags.evidence_of', { kind: t(`console.flags.kind_${opened.kind}`) })} <Link to={`/console/members/${opened.memberId}`}>#{opened.memberId}</Link>
            </h2>
            <ul className="small">
              {opened.evidence.map((e) => (
                <li key={`${e.messageId ?? ''}-${e.at}`}>
                  <span className="text-body-secondary">{formatDateTime(e.at, lang)}</span>
                  {e.matched?.length ? <> · {t('console.flags.matched')}: <mark>{e.matched.join(', ')}</mark></> : null}
                  {e.count ? <> · {t('console.flags.recipients', { count: e.count })}</> : null}
                  {e.excerpt ? <blockquote className="mb-1 border-start ps-2">{e.excerpt}</blockquote> : null}
                </li>
              ))}
            </ul>
            <Form method="post" className="d-flex gap-2">
              <input type="hidden" name="id" value={opened.id} />
              <button type="submit" className="btn btn-primary btn-sm" disabled={busy} data-testid="flag-resolve">{t('console.flags.resolve')}</button>
              <Link to={placeHref(place)} className="btn btn-outline-secondary btn-sm">{t('console.flags.close')}</Link>
            </Form>
            <p className="form-text mb-0">{t('console.flags.resolve_help')}</p>
          </div>
        </section>
      )}
      {flags.length ? (
        <div className="table-responsive">
          <table className="table table-sm table-striped align-middle" data-testid="flag-table">
            <caption className="visually-hidden">{t(place.sort === 'newest' ? 'console.flags.caption_newest' : 'console.flags.caption')}</caption>
            <thead>
              <tr>
                <th scope="col" aria-sort={place.sort === 'newest' ? 'descending' : 'ascending'}>{t('console.flags.since')}</th>
                <th scope="col">{t('console.flags.member')}</th>
                <th scope="col">{t('console.flags.kind')}</th>
                <th scope="col">{t('console.flags.hits')}</th>
                <th scope="col">{t('console.flags.last')}</th>
                <th scope="col"><span className="visually-hidden">{t('console.flags.open')}</span></th>
              </tr>
            </thead>
            <tbody>
              {flags.map((f) => (
                <tr key={f.id} data-testid="flag-row">
                  <td className="text-nowrap">{formatDateTime(f.firstAt, lang)}</td>
                  <td><Link to={`/console/members/${f.memberId}`}>#{f.memberId}</Link> <span className="text-body-secondary small">({t('console.members.site')} {f.siteId})</span></td>
                  <td>{t(`console.flags.kind_${f.kind}`)}</td>
                  <td>{f.hits}</td>
                  <td className="text-nowrap">{formatDateTime(f.lastAt, lang)}</td>
                  <td><Link to={placeHref(place, f.id)} className="btn btn-outline-primary btn-sm" data-testid="flag-open">{t('console.flags.open')}</Link></td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : <p data-testid="flag-empty">{t('console.flags.empty')}</p>}
      <QueuePager
        prev={prev === null ? null : placeHref({ sort: place.sort, after: null, before: prev })}
        next={next === null ? null : placeHref({ sort: place.sort, after: next, before: null })}
      />
    </>
  );
}
