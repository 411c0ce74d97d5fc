import Button from 'react-bootstrap/Button';
import { data, Form, redirectDocument, useActionData, useLoaderData, useNavigation } from 'react-router';
import { consoleTokenSchema } from '#common/console.ts';
import { STAFF_ROLES } from '#common/staff.ts';
import { requestCookieJar } from '#server/http/cookie-jar.ts';
import { consoleErrorText, consoleLanguage, consoleRelyingParty, requireConsoleStaff } from '#server/http/console-pages.server.ts';
import { clearStaffCookie } from '#server/http/staff-cookies.ts';
import type { Route } from './+types/console-account';
import { requestContext } from '../context.ts';
import { FormField } from '../components/FormField.tsx';
import { useTranslation } from '../lib/i18n.ts';
import { pageMeta } from '../lib/seo.ts';
import { ConsolePasskeys } from '../features/console/ConsolePasskeys.tsx';
import { CredentialTable } from '../features/console/CredentialTable.tsx';

export function meta({ matches }: Route.MetaArgs) {
  return pageMeta(matches, { titleKey: 'console.account.title', noindex: true });
}

export async function loader({ context }: Route.LoaderArgs) {
  const ctx = context.get(requestContext);
  const staff = await requireConsoleStaff(ctx);
  const [account, tokens, passkeys, newPasskey] = await Promise.all([
    ctx.services.console.account(staff), ctx.services.console.tokens(staff), ctx.services.console.passkeys(staff),
    ctx.services.console.passkeyOptions(staff, consoleRelyingParty(ctx)),
  ]);
  // A token acts with some of its owner's roles; an admin's include every other role.
  const scopes = account.roles.includes('admin') ? STAFF_ROLES : account.roles;
  return { account, tokens, scopes, passkeys, newPasskey, domain: consoleRelyingParty(ctx).id };
}

type Reply = { intent: string; error?: string; token?: string; done?: boolean };

/** Refusals of a passkey the console words its own way. */
const PASSKEY_ERRORS = ['passkey_failed', 'passkey_expired', 'passkey_known', 'passkey_limit'] as const;

/**
 * Each action one use case: a new token (its value shown once, here), a token revoked, a passkey added or removed,
 * every session ended.
 */
export async function action({ context, request }: Route.ActionArgs) {
  const ctx = context.get(requestContext);
  const staff = await requireConsoleStaff(ctx);
  const lang = await consoleLanguage(ctx);
  const formData = await request.formData();
  const intent = String(formData.get('intent') ?? '');
  const from = { ip: ctx.clientAddress };
  try {
    if (intent === 'create') {
      const parsed = consoleTokenSchema.safeParse({ name: formData.get('name') ?? undefined, scopes: formData.getAll('scopes') });
      if (!parsed.success) return data<Reply>({ intent, error: ctx.translator.t(lang, parsed.error.issues[0].message) }, 400);
      const { token } = await ctx.services.console.createToken(staff, parsed.data, from);
      return data<Reply>({ intent, token });
    }
    if (intent === 'revoke') {
      const id = Number(formData.get('id'));
      if (!Number.isSafeInteger(id) || id < 1) return data<Reply>({ intent, error: ctx.translator.t(lang, 'errors.not_found') }, 404);
      await ctx.services.console.revokeToken(staff, id, from);
      return data<Reply>({ intent, done: true });
    }
    if (intent === 'passkey_add') {
      const input = { state: String(formData.get('state') ?? ''), name: String(formData.get('name') ?? ''), credential: formData.get('credential') };
      await ctx.services.console.addPasskey(staff, input, consoleRelyingParty(ctx), from);
      return data<Reply>({ intent, done: true });
    }
    if (intent === 'passkey_remove') {
      const id = Number(formData.get('id'));
      if (!Number.isSafeInteger(id) || id < 1) return data<Reply>({ intent, error: ctx.translator.t(lang, 'errors.not_found') }, 404);
      await ctx.services.console.removePasskey(staff, id, from);
      return data<Reply>({ intent, done: true });
    }
    if (intent === 'sign_out_everywhere') {
      await ctx.services.console.signOutEverywhere(staff, from);
      const jar = requestCookieJar(request);
      clearStaffCookie(jar, ctx);
      return redirectDocument('/console/login', { headers: jar.headers });
    }
    return data<Reply>({ intent, error: ctx.translator.t(lang, 'errors.invalid_input') }, 400);
  } catch (error) {
    const refusal = consoleErrorText(ctx, lang, error, PASSKEY_ERRORS);
    return data<Reply>({ intent, error: refusal.message }, refusal.code === 'not_found' ? 404 : 400);
  }
}

export default function ConsoleAccount() {
  const { t } = useTranslation();
  const { account, tokens, scopes, passkeys, newPasskey, domain } = useLoaderData<typeof loader>();
  const reply = useActionData<typeof action>() as Reply | undefined;
  const busy = useNavigation().state !== 'idle';
  return (
    <>
      <h1 className="h3">{t('console.account.title')}</h1>
      <p className="text-body-secondary">{account.name} · {account.email}</p>

      <section className="mb-4" aria-labelledby="tokens-heading">
        <h2 className="h5" id="tokens-heading">{t('console.account.tokens')}</h2>
        <p>{t('console.account.tokens_intro')}</p>
        {reply?.intent === 'create' && reply.token && (
          <div className="alert alert-success" role="status" data-testid="console-new-token">
            <p className="mb-2">{t('console.account.token_shown_once')}</p>
            <code className="user-select-all text-break text-reset">{reply.token}</code>
          </div>
        )}
        {reply?.error && !reply.intent.startsWith('passkey_') && <div className="alert alert-danger" role="alert" data-testid="console-account-error">{reply.error}</div>}
        {tokens.length ? (
          <CredentialTable
            items={tokens} testId="console-tokens" intent="revoke" action={t('console.account.revoke')}
            actionNamed={(name) => t('console.account.revoke_named', { name })}
            detail={{ header: t('console.account.scopes'), cell: (token) => token.scopes.map((s) => t(`console.roles.${s}`)).join(', ') }}
          />
        ) : <p className="text-body-secondary">{t('console.account.no_tokens')}</p>}

        <Form method="post" className="card card-body mt-3" aria-labelledby="new-token-heading">
          <h3 className="h6" id="new-token-heading">{t('console.account.new_token')}</h3>
          <input type="hidden" name="intent" value="create" />
          <FormField id="token-name" name="name" className="mb-3" label={t('console.account.token_name')} maxLength={100} required />
          <FormField as="group" id="token-scopes" className="mb-3" label={t('console.account.scopes')}>
            {scopes.map((role) => (
              <FormField
                as="checkbox" key={role} id={`scope-${role}`} name="scopes" value={role} className="form-check-inline" label={t(`console.roles.${role}`)}
              />
            ))}
          </FormField>
          <div><Button type="submit" disabled={busy} data-testid="console-create-token">{t('console.account.create_token')}</Button></div>
        </Form>
      </section>

      <ConsolePasskeys passkeys={passkeys} newPasskey={newPasskey} domain={domain} reply={reply?.intent.startsWith('passkey_') ? reply : undefined} />

      <section aria-labelledby="sessions-heading">
        <h2 className="h5" id="sessions-heading">{t('console.account.sessions')}</h2>
        <p>{t('console.account.sessions_intro')}</p>
        <Form method="post">
          <input type="hidden" name="intent" value="sign_out_everywhere" />
          <Button type="submit" variant="outline-danger" disabled={busy} data-testid="console-sign-out-everywhere">{t('console.account.sign_out_everywhere')}</Button>
        </Form>
      </section>
    </>
  );
}
