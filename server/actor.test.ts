import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { actorFor, requireMember, type Actor, type StaffActor } from './actor.ts';
import { SYSTEM } from '../tests/helpers/staff.ts';
import type { Services } from './use-cases.ts';
import { createTestApp, signUp, type TestApp } from '../tests/helpers/test-app.ts';

const staff = (roles: StaffActor['roles'], siteIds: number[] | null): StaffActor => ({ kind: 'staff', staffId: 1, roles, siteIds, companyIds: null });

describe('actors', () => {
  it('a member is who acts with a user id; anyone else needs to sign in', () => {
    expect(requireMember(actorFor(1, 7))).toEqual({ kind: 'member', userId: 7, siteId: 1 });
    expect(() => requireMember(actorFor(1, null))).toThrow(expect.objectContaining({ status: 403, code: 'authentication_required' }));
  });
});

/**
 * Every member use case checks its actor itself: called by a visitor, by staff or by a job (not
 * through a door that refused them already), it is refused and changes nothing.
 */
describe('member use cases refuse anyone but a member', () => {
  let t: TestApp;
  let other: number;
  beforeAll(async () => {
    t = await createTestApp('pglite', { profiles: 0 });
    other = (await signUp(t)).user.id;
  });
  afterAll(() => t.close());

  const notMembers = (): [string, Actor][] => [
    ['a visitor', { kind: 'visitor', siteId: t.siteId }],
    ['a moderator', staff(['moderator'], [t.siteId])],
    ['an admin', staff(['admin'], null)],
    ['a job', { kind: 'system', job: 'test' }],
  ];

  const useCases: [string, (s: Services, actor: Actor) => Promise<unknown>][] = [
    ['blocks.list', (s, a) => s.blocks.list(a)],
    ['blocks.block', (s, a) => s.blocks.block(a, other)],
    ['blocks.unblock', (s, a) => s.blocks.unblock(a, other)],
    ['likes.like', (s, a) => s.likes.like(a, other)],
    ['likes.unlike', (s, a) => s.likes.unlike(a, other)],
    ['likes.overview', (s, a) => s.likes.overview(a)],
    ['likes.autoLike', (s, a) => s.likes.autoLike(a)],
    ['games.swipeDeck', (s, a) => s.games.swipeDeck(a)],
    ['games.swipeLike', (s, a) => s.games.swipeLike(a, other)],
    ['games.matchFinder', (s, a) => s.games.matchFinder(a)],
    ['chat.send', (s, a) => s.chat.send(a, { recipientId: other, content: { kind: 'text', text: 'Hi' }, idempotencyKey: 'actor-test-0001' })],
    ['chat.list', (s, a) => s.chat.list(a)],
    ['chat.openWith', (s, a) => s.chat.openWith(a, other)],
    ['chat.read', (s, a) => s.chat.read(a, 1)],
    ['chat.typing', (s, a) => s.chat.typing(a, other)],
    ['chat.setViewing', (s, a) => s.chat.setViewing(a, null)],
    ['chat.removeWith', (s, a) => s.chat.removeWith(a, other)],
    ['chat.freeMessagesLeft', (s, a) => s.chat.freeMessagesLeft(a)],
    ['chat.terms', (s, a) => s.chat.terms(a)],
    ['payments.createOrder', (s, a) => s.payments.createOrder(a, { packageId: 1, paymentmethod: 'ideal', idempotencyKey: 'actor-test-0002', withdrawalConsent: true })],
    ['payments.repeatOrder', (s, a) => s.payments.repeatOrder(a, { packageId: 1, mandateId: 1, idempotencyKey: 'actor-test-0003', withdrawalConsent: true })],
    ['payments.purchase', (s, a) => s.payments.purchase(a, { code: null })],
    ['payments.order', (s, a) => s.payments.order(a, 'ord_missing')],
    ['payments.mandates', (s, a) => s.payments.mandates(a)],
    ['payments.revokeMandate', (s, a) => s.payments.revokeMandate(a, 1)],
    ['payments.decideTestCheckout', (s, a) => s.payments.decideTestCheckout(a, 'tr_missing', 'paid')],
    ['records.orders', (s, a) => s.records.orders(a, 1)],
    ['records.ledger', (s, a) => s.records.ledger(a, 1)],
    ['records.cancelOrder', (s, a) => s.records.cancelOrder(a, 'ord_missing')],
    ['records.setSpendCap', (s, a) => s.records.setSpendCap(a, null)],
    ['records.invoiceData', (s, a) => s.records.invoiceData(a, 'ord_missing')],
    ['discounts.quote', (s, a) => s.discounts.quote(a, [], null)],
    ['discounts.retentionOffer', (s, a) => s.discounts.retentionOffer(a, 'too_expensive')],
    ['discounts.retentionOfferShown', (s, a) => s.discounts.retentionOfferShown(a)],
    ['directDebit.pending', (s, a) => s.directDebit.pending(a, 'dd_missing')],
    ['directDebit.start', (s, a) => s.directDebit.start(a, { form: { package_id: 1 } as never, discountCode: null, language: 'en' })],
    ['directDebit.confirm', (s, a) => s.directDebit.confirm(a, { requestId: 'dd_missing', code: '123456' })],
    ['profiles.own', (s, a) => s.profiles.own(a)],
    ['profiles.update', (s, a) => s.profiles.update(a, { name: 'Actor', gender: 'female', sexuality: null, hair_color: null, eye_color: null, body_type: null, relationship_status: null, tattoos: null, signup_reason: null, interests: [], about: '', country: 'NL', region: null })],
    ['profiles.updateSignupFields', (s, a) => s.profiles.updateSignupFields(a, { about: 'Hi' })],
    ['photos.list', (s, a) => s.photos.list(a)],
    ['photos.upload', (s, a) => s.photos.upload(a, Buffer.from('not a photo'), { isPrivate: false })],
    ['photos.remove', (s, a) => s.photos.remove(a, 1)],
    ['photos.setMain', (s, a) => s.photos.setMain(a, 1)],
    ['photos.setPrivate', (s, a) => s.photos.setPrivate(a, 1, true)],
    ['notifications.settings', (s, a) => s.notifications.settings(a)],
    ['notifications.update', (s, a) => s.notifications.update(a, { invisible: true })],
    ['notifications.reenable', (s, a) => s.notifications.reenable(a, 'bounce')],
    ['push.setSubscription', (s, a) => s.push.setSubscription(a, false)],
    ['push.state', (s, a) => s.push.state(a)],
    ['accounts.setLanguage', (s, a) => s.accounts.setLanguage(a, 'de')],
    ['lifecycle.resendActivation', (s, a) => s.lifecycle.resendActivation(a)],
    ['lifecycle.changePassword', (s, a) => s.lifecycle.changePassword(a, undefined, 'old password', 'a new password 123', 'a new password 123')],
    ['lifecycle.requestEmailChange', (s, a) => s.lifecycle.requestEmailChange(a, 'new@example.com', 'password')],
    ['lifecycle.pause', (s, a) => s.lifecycle.pause(a)],
    ['lifecycle.deleteAccount', (s, a) => s.lifecycle.deleteAccount(a, 'password', null)],
    ['lifecycle.exportData', (s, a) => s.lifecycle.exportData(a)],
    ['signup.touch', (s, a) => s.signup.touch(a)],
  ];

  it.each(useCases)('%s', async (_name, call) => {
    for (const [who, actor] of notMembers()) {
      await expect(call(t.services, actor), who).rejects.toMatchObject({ status: 403, code: 'authentication_required' });
    }
  });
});

/** Refunds and blocked payment details are finance staff's (or a job's), not a member's or a moderator's. */
describe('finance use cases refuse members and moderators', () => {
  let t: TestApp;
  let member: Actor;
  beforeAll(async () => {
    t = await createTestApp('pglite', { profiles: 0 });
    member = (await signUp(t)).actor;
  });
  afterAll(() => t.close());

  const operatorOnly: [string, (s: Services, actor: Actor) => Promise<unknown>][] = [
    ['records.refundOrder', (s, a) => s.records.refundOrder(a, 'ord_missing', { reason: 'duplicate charge', idempotencyKey: 'actor-test-refund' })],
    ['directDebit.blocks', (s, a) => s.directDebit.blocks(a)],
    ['directDebit.block', (s, a) => s.directDebit.block(a, { kind: 'phone', value: '+31612345678' })],
    ['directDebit.unblock', (s, a) => s.directDebit.unblock(a, { kind: 'phone', value: '+31612345678' })],
  ];

  it.each(operatorOnly)('%s', async (_name, call) => {
    for (const actor of [member, { kind: 'visitor', siteId: t.siteId }, staff(['moderator', 'support'], null)] as Actor[]) {
      await expect(call(t.services, actor), actor.kind).rejects.toMatchObject({ status: 403, code: 'forbidden' });
    }
    // Finance staff of every site and jobs get as far as the order or the list.
    await expect(call(t.services, SYSTEM).catch((e: { code: string }) => e.code)).resolves.not.toBe('forbidden');
    await expect(call(t.services, staff(['finance'], null)).catch((e: { code: string }) => e.code)).resolves.not.toBe('forbidden');
  });
});
