import { Hono } from 'hono';
import { deleteCookie } from 'hono/cookie';
import { AUTH_COOKIE } from '#common/constants.ts';
import { mailChangeSchema, passwordResetRequestSchema, reactivateSchema } from '#common/schemas.ts';
import type { AppEnv } from '../http/context.ts';
import { honoCookieJar } from '../http/cookie-jar.ts';
import { jsonBody, parse, rateLimit, type C } from '../http/helpers.ts';
import { setSessionCookie } from './accounts.routes.ts';
import { requireMember } from '../actor.ts';
import { requestPasswordReset, resetPassword } from './session-cookies.ts';

const ok = (c: C) => c.json({ ok: true });

/**
 * Account lifecycle endpoints: activation, password reset and change, e-mail change, deletion,
 * reactivation and data export. Every endpoint that sends a mail has a per-IP limit.
 */
export const lifecycleRoutes = new Hono<AppEnv>()
  /** The link in the activation mail. */
  .get('/activate.php', async (c) => {
    const ctx = c.get('ctx');
    await rateLimit(c, ctx.services.rateLimits.links);
    const done = await ctx.services.lifecycle.activate(c.req.query('token'));
    return c.redirect(done ? '/activate/done' : '/activate/error', 302);
  })

  /** Sends the activation mail again (signed-in, not yet confirmed). */
  .post('/activation-mail.php', async (c) => {
    const ctx = c.get('ctx');
    await rateLimit(c, ctx.services.rateLimits.mail);
    await ctx.services.lifecycle.resendActivation(ctx.actor);
    return ok(c);
  })

  /** {email}: mails a reset link. */
  .post('/password-reset.php', async (c) => {
    const ctx = c.get('ctx');
    await rateLimit(c, ctx.services.rateLimits.mail);
    const body = parse(passwordResetRequestSchema, await jsonBody(c));
    await requestPasswordReset(honoCookieJar(c), ctx, body.email);
    return ok(c);
  })

  /** {token, password, password_confirm}: the new password from the reset link; every session ends. */
  .put('/password-reset.php', async (c) => {
    const ctx = c.get('ctx');
    await rateLimit(c, ctx.services.rateLimits.links);
    const body = await jsonBody(c);
    await resetPassword(honoCookieJar(c), ctx, body.token, body.password, body.password_confirm);
    return ok(c);
  })

  /** {old_password, password, password_confirm}: signed-in change; the other sessions end. */
  .put('/password.php', async (c) => {
    const ctx = c.get('ctx');
    await rateLimit(c, ctx.services.rateLimits.login);
    const body = await jsonBody(c);
    await ctx.services.lifecycle.changePassword(ctx.actor, c.get('sessionToken'), body.old_password, body.password, body.password_confirm);
    return ok(c);
  })

  /** {email, password}: mails a confirmation link to the new address. */
  .post('/mail-change.php', async (c) => {
    const ctx = c.get('ctx');
    await rateLimit(c, ctx.services.rateLimits.mail);
    const body = parse(mailChangeSchema, await jsonBody(c));
    await ctx.services.lifecycle.requestEmailChange(ctx.actor, body.email, body.password);
    return ok(c);
  })

  /** Pause instead of leaving: invisible, and no e-mail. */
  .post('/account-pause.php', async (c) => {
    const ctx = c.get('ctx');
    await ctx.services.lifecycle.pause(ctx.actor);
    return c.json(await ctx.services.notifications.settings(ctx.actor));
  })

  /** {password, reason}: deletes the account (reactivation possible for 14 days) and signs out everywhere. */
  .delete('/user.php', async (c) => {
    const ctx = c.get('ctx');
    await rateLimit(c, ctx.services.rateLimits.login);
    const body = await jsonBody(c);
    await ctx.services.lifecycle.deleteAccount(ctx.actor, body.password, body.reason);
    deleteCookie(c, AUTH_COOKIE, { path: '/' });
    return ok(c);
  })

  /**
   * {email}: mails a reactivation link when the address has an account deleted less than 14 days
   * ago. The answer is 200 {ok:true} for every valid address, so it reveals nothing about accounts.
   */
  .post('/reactivate.php', async (c) => {
    const ctx = c.get('ctx');
    await rateLimit(c, ctx.services.rateLimits.mail);
    const body = await jsonBody(c);
    const { email } = parse(reactivateSchema, body);
    await ctx.services.lifecycle.requestReactivation(email);
    return ok(c);
  })

  /** The link in the reactivation mail: the account is back, and the member is signed in. */
  .get('/reactivate.php', async (c) => {
    const ctx = c.get('ctx');
    await rateLimit(c, ctx.services.rateLimits.links);
    const userId = await ctx.services.lifecycle.reactivate(c.req.query('token'));
    if (!userId) return c.redirect('/activate/error?reason=reactivation', 302);
    setSessionCookie(c, await ctx.services.accounts.createSession(userId, c.req.header('user-agent')));
    return c.redirect('/members?reactivated=1', 302);
  })

  /** The member's own data as a JSON download. */
  .get('/export.php', async (c) => {
    const ctx = c.get('ctx');
    const { userId } = requireMember(ctx.actor);
    const data = await ctx.services.lifecycle.exportData(ctx.actor);
    const date = ctx.services.clock().toISOString().slice(0, 10);
    c.header('Content-Disposition', `attachment; filename="${ctx.site.domain.replace(/[^a-z0-9.-]/gi, '')}-data-${userId}-${date}.json"`);
    return c.json(data);
  });
