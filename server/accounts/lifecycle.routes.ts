import { deleteCookie } from 'hono/cookie';
import { AUTH_COOKIE } from '#common/constants.ts';
import { accountContracts } from '#common/contracts/accounts.ts';
import { ApiRoutes } from '../http/endpoint.ts';
import { honoCookieJar } from '../http/cookie-jar.ts';
import { limitedBy, type C } from '../http/helpers.ts';
import { setSessionCookie } from './accounts.routes.ts';
import { requireMember } from '../actor.ts';
import { requestPasswordReset, resetPassword } from '../http/session-cookies.ts';

const ok = (c: C) => c.json({ ok: true });
const links = limitedBy((limits) => limits.links);
const mails = limitedBy((limits) => limits.mail);
const logins = limitedBy((limits) => limits.login);

/**
 * Account lifecycle endpoints: activation, password reset and change, e-mail change, deletion,
 * reactivation and data export. Every endpoint that sends a mail has a per-IP limit.
 */
export const lifecycleRoutes = new ApiRoutes()
  /** The link in the activation mail. */
  .endpoint(accountContracts.activate, { before: [links] }, async (c, { query }) => {
    const done = await c.get('ctx').services.lifecycle.activate(query.token);
    return c.redirect(done ? '/activate/done' : '/activate/error', 302);
  })

  /** Sends the activation mail again (signed-in, not yet confirmed). */
  .endpoint(accountContracts.activationMail, { before: [mails] }, async (c) => {
    const ctx = c.get('ctx');
    await ctx.services.lifecycle.resendActivation(ctx.actor);
    return ok(c);
  })

  /** {email}: mails a reset link. */
  .endpoint(accountContracts.passwordResetMail, { before: [mails] }, async (c, { body }) => {
    await requestPasswordReset(honoCookieJar(c), c.get('ctx'), body.email);
    return ok(c);
  })

  /** {token, password, password_confirm}: the new password from the reset link; every session ends. */
  .endpoint(accountContracts.passwordReset, { before: [links] }, async (c, { body }) => {
    await resetPassword(honoCookieJar(c), c.get('ctx'), body.token, body.password, body.password_confirm);
    return ok(c);
  })

  /** {old_password, password, password_confirm}: signed-in change; the other sessions end. */
  .endpoint(accountContracts.passwordChange, { before: [logins] }, async (c, { body }) => {
    const ctx = c.get('ctx');
    await ctx.services.lifecycle.changePassword(ctx.actor, c.get('sessionToken'), body.old_password, body.password, body.password_confirm);
    return ok(c);
  })

  /** {email, password}: mails a confirmation link to the new address. */
  .endpoint(accountContracts.mailChange, { before: [mails] }, async (c, { body }) => {
    const ctx = c.get('ctx');
    await ctx.services.lifecycle.requestEmailChange(ctx.actor, body.email, body.password);
    return ok(c);
  })

  /** Pause instead of leaving: invisible, and no e-mail. */
  .endpoint(accountContracts.pause, async (c) => {
    const ctx = c.get('ctx');
    await ctx.services.lifecycle.pause(ctx.actor);
    return c.json(await ctx.services.notifications.settings(ctx.actor));
  })

  /** {password, reason}: deletes the account (reactivation possible for 14 days) and signs out everywhere. */
  .endpoint(accountContracts.deleteAccount, { before: [logins] }, async (c, { body }) => {
    const ctx = c.get('ctx');
    await ctx.services.lifecycle.deleteAccount(ctx.actor, body.password, body.reason);
    deleteCookie(c, AUTH_COOKIE, { path: '/' });
    return ok(c);
  })

  /**
   * {email}: mails a reactivation link when the address has an account deleted less than 14 days
   * ago. The answer is 200 {ok:true} for every valid address, so it reveals nothing about accounts.
   */
  .endpoint(accountContracts.reactivationMail, { before: [mails] }, async (c, { body }) => {
    const ctx = c.get('ctx');
    await ctx.services.lifecycle.requestReactivation(ctx.site.id, body.email);
    return ok(c);
  })

  /** The link in the reactivation mail: the account is back, and the member is signed in. */
  .endpoint(accountContracts.reactivate, { before: [links] }, async (c, { query }) => {
    const ctx = c.get('ctx');
    const userId = await ctx.services.lifecycle.reactivate(ctx.site.id, query.token);
    if (!userId) return c.redirect('/activate/error?reason=reactivation', 302);
    setSessionCookie(c, await ctx.services.accounts.createSession(userId, ctx.site.id, c.req.header('user-agent')));
    return c.redirect('/members?reactivated=1', 302);
  })

  /** The member's own data as a JSON download. */
  .endpoint(accountContracts.export, async (c) => {
    const ctx = c.get('ctx');
    const { userId } = requireMember(ctx.actor);
    const data = await ctx.services.lifecycle.exportData(ctx.actor);
    const date = ctx.services.clock().toISOString().slice(0, 10);
    c.header('Content-Disposition', `attachment; filename="${ctx.site.domain.replace(/[^a-z0-9.-]/gi, '')}-data-${userId}-${date}.json"`);
    return c.json(data);
  });
