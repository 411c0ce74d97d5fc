import { data, Form, Link, useActionData, useLoaderData, useNavigation } from 'react-router';
import { FLAG_KINDS } from '#common/moderation-flags.ts';
import { consoleErrorText, consoleLanguage, orForbidden, requireConsoleStaff } from '#server/http/console-pages.server.ts';
import type { Route } from './+types/console-flags';
import { requestContext } from '../context.ts';
import { useTranslation } from '../lib/i18n.ts';
import { pageMeta } from '../lib/seo.ts';
import { formatDateTime } from '../lib/format.ts';

export function meta({ matches }: Route.MetaArgs) {
  return pageMeta(matches, { titleKey: 'console.flags.title', noindex: true });
}

const idOf = (value: string | null) => (value && /^\d{1,10}$/.test(value) && Number(value) <= 2_147_483_647 ? Number(value) : null);

/**
 * The members queue's automatic flags, oldest first, 50 a page (`after`: the last id of the page before). `open` shows
 * one flag's evidence, the messages' excerpts: that opening is audited, so it happens only when asked for.
 */
export async function loader({ context, request }: Route.LoaderArgs) {
  const ctx = context.get(requestContext);
  const staff = await requireConsoleStaff(ctx);
  const search = new URL(request.url).searchParams;
  const after = idOf(search.get('after')) ?? undefined;
  const queue = await orForbidden(ctx.services.console.flags(staff, { after }));
  const openId = idOf(search.get('open'));
  const opened = openId === null ? null : await orForbidden(ctx.services.console.flag(staff, openId, { ip: ctx.clientAddress }).catch((e: { status?: number }) => {
    if (e.status === 404) return null;
    throw e;
  }));
  return { ...queue, opened, after: after ?? null };
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
  const { flags, counts, opened, after } = useLoaderData<typeof loader>();
  const reply = useActionData<typeof action>();
  const busy = useNavigation().state !== 'idle';
  const last = flags.at(-1);
  return (
    <>
      <h1 className="h3">{t('console.flags.title')}</h1>
      <p className="text-body-secondary">{t('console.flags.intro')}</p>
      <ul className="list-inline" aria-label={t('console.flags.counts')} data-testid="flag-counts">
        {FLAG_KINDS.map((kind) => (
          <li key={kind} className="list-inline-item"><span className="badge text-bg-secondary">{t(`console.flags.kind_${kind}`)}: {counts[kind]}</span></li>
        ))}
      </ul>
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
              <Link to="/console/flags" className="btn btn-outline-secondary btn-sm">{t('console.flags.close')}</Link>
            </Form>
            <p className="form-text mb-0">{t('console.flags.resolve_help')}</p>
          </div>
        </section>
      )}
      {flags.length ? (
        <div className="table-responsive">
          <table className="table table-sm table-striped align-middle" data-testid="flag-table">
            <caption className="visually-hidden">{t('console.flags.caption')}</caption>
            <thead>
              <tr>
                <th scope="col" aria-sort="ascending">{t('console.flags.since')}</th>
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
                  <td><Link to={`?open=${f.id}${after ? `&after=${after}` : ''}`} className="btn btn-outline-primary btn-sm" data-testid="flag-open">{t('console.flags.open')}</Link></td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : <p data-testid="flag-empty">{t('console.flags.empty')}</p>}
      {flags.length === 50 && last && <Link to={`?after=${last.id}`} className="btn btn-outline-secondary btn-sm" rel="next">{t('console.flags.next')}</Link>}
    </>
  );
}
