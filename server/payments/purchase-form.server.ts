import { safeReturnPath } from '#common/schemas.ts';
import { chosenBundle } from '#common/spend-cap.ts';
import type { MemberActor } from '../actor.ts';
import type { RequestContext } from '../http/context.ts';

/** A discount code the page's link brought: `?discount=` (the code field, a plain GET form) or `?code=`. */
export const linkedCode = (url: URL): string | null => url.searchParams.get('discount') ?? url.searchParams.get('code');

/**
 * The purchase form of the credits and premium pages: the member's purchase options (payments.purchase) with the
 * link's code, the reason a code cannot be used in the member's language, and the bundle the page marks (`?package=`,
 * `?need=`, `?method=`), and where the payment's status page continues to (`?return=`, a path on this site, else none).
 */
export async function purchaseForm(ctx: RequestContext, member: MemberActor, url: URL) {
  const { codeRefusal, ...purchase } = await ctx.services.payments.purchase(member, { code: linkedCode(url) });
  return {
    ...purchase,
    codeError: codeRefusal ? ctx.translator.t(ctx.lang, `errors.${codeRefusal.code}`, codeRefusal.params) : null,
    choice: chosenBundle(purchase.packages, url.searchParams),
    returnTo: safeReturnPath(url.searchParams.get('return')),
  };
}

export type PurchaseData = Awaited<ReturnType<typeof purchaseForm>>;
