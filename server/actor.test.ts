import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { actorFor, requireMember, type Actor } from './actor.ts';
import type { Services } from './services.ts';
import { createTestApp, signUp, type TestApp } from '../tests/helpers/test-app.ts';

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
    ['a moderator', { kind: 'staff', role: 'moderator', siteId: t.siteId }],
    ['an operator', { kind: 'staff', role: 'operator', siteId: null }],
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
    ['chat.send', (s, a) => s.chat.send(a, { recipientId: other, content: { kind: 'text', text: 'Hi' }, idempotencyKey: 'actor-test-0001', cost: 0, maxLength: 500 })],
    ['chat.list', (s, a) => s.chat.list(a)],
    ['chat.openWith', (s, a) => s.chat.openWith(a, other)],
    ['chat.read', (s, a) => s.chat.read(a, 1)],
    ['chat.typing', (s, a) => s.chat.typing(a, other)],
    ['chat.setViewing', (s, a) => s.chat.setViewing(a, null)],
    ['chat.removeWith', (s, a) => s.chat.removeWith(a, other)],
    ['chat.freeMessagesLeft', (s, a) => s.chat.freeMessagesLeft(a, 3)],
  ];

  it.each(useCases)('%s', async (_name, call) => {
    for (const [who, actor] of notMembers()) {
      await expect(call(t.services, actor), who).rejects.toMatchObject({ status: 403, code: 'authentication_required' });
    }
  });
});
