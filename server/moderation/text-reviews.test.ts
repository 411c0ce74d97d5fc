import { and, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import type { MemberActor } from '../actor.ts';
import { auditLog, moderationDecisions, profiles, textReviews } from '../db/schema.ts';
import { queueTestApp } from '../../tests/helpers/queue-test-app.ts';
import { refusal } from '../../tests/helpers/refusal.ts';
import { DATABASE_KINDS, signUp } from '../../tests/helpers/test-app.ts';
import { CLAIM_MS, QUEUE_PAGE } from './queue-shared.ts';

describe.each(DATABASE_KINDS)('the names and about-me texts queue on %s', (kind) => {
  const q = queueTestApp(kind, 'text');

  const edit = (actor: MemberActor, change: { name: string; about: string }) => q.t.services.profiles.update(actor, {
    gender: 'female', sexuality: null, hair_color: null, eye_color: null, body_type: null, relationship_status: null, tattoos: null,
    signup_reason: null, interests: [], country: 'NL', region: null, ...change,
  });
  const waiting = (memberId: number) => q.db().select().from(textReviews).where(and(eq(textReviews.memberId, memberId), eq(textReviews.status, 'open')));
  const profile = async (memberId: number) => (await q.db().select().from(profiles).where(eq(profiles.userId, memberId)))[0];

  it('queues a new member\'s name and a changed about-me text, shown at once, and a newer change replaces the waiting one', async () => {
    const m = await signUp(q.t, { name: 'Fresh Name' });
    expect((await waiting(m.user.id)).map((r) => [r.field, r.oldText, r.newText])).toEqual([['name', null, 'Fresh Name']]);
    await edit(m.actor, { name: 'Fresh Name', about: 'First words' });
    await edit(m.actor, { name: 'Fresh Name', about: 'Second words' });
    const rows = await waiting(m.user.id);
    expect(rows.map((r) => [r.field, r.oldText, r.newText]).sort()).toEqual([['about', '', 'Second words'], ['name', null, 'Fresh Name']]);
    expect((await profile(m.user.id)).about).toBe('Second words');
    // Back to what stood before: nothing left to review.
    await edit(m.actor, { name: 'Fresh Name', about: '' });
    expect((await waiting(m.user.id)).map((r) => r.field)).toEqual(['name']);
  });

  it('lists oldest first with old and new text, within the moderator\'s sites, and pages past fifty', async () => {
    const mod = await q.staff();
    const before = await q.t.services.console.textQueue(mod);
    const made: number[] = [];
    for (let i = 0; i < QUEUE_PAGE + 2 - before.counts.open; i++) {
      q.t.clock.advance(1000);
      made.push((await signUp(q.t, { name: `Pager ${i}` })).user.id);
    }
    const first = await q.t.services.console.textQueue(mod);
    expect(first.counts.open).toBe(QUEUE_PAGE + 2);
    expect(first.items).toHaveLength(QUEUE_PAGE);
    expect(first).toMatchObject({ page: 1, has_more: true });
    const second = await q.t.services.console.textQueue(mod, 2);
    expect(second).toMatchObject({ page: 2, has_more: false });
    expect(second.items).toHaveLength(2);
    const all = [...first.items, ...second.items];
    expect(all.map((i) => i.created_at)).toEqual([...all.map((i) => i.created_at)].sort());
    expect(new Set(all.map((i) => i.id)).size).toBe(QUEUE_PAGE + 2);
    expect(second.items.at(-1)).toMatchObject({ member_id: made.at(-1), field: 'name', old_text: null, new_text: `Pager ${made.length - 1}` });
    const elsewhere = await q.staff(['moderator'], [q.t.siteId + 1000]);
    expect((await q.t.services.console.textQueue(elsewhere)).counts.open).toBe(0);
    expect((await q.t.services.console.queueCounts(mod)).texts).toBe(QUEUE_PAGE + 2);
    // Clear the queue for the next tests.
    await q.db().update(textReviews).set({ status: 'approved' }).where(eq(textReviews.status, 'open'));
  });

  it('lets one moderator claim an item for ten minutes; another\'s claim and decision are refused', async () => {
    const m = await signUp(q.t, { name: 'Claimed Name' });
    const [item] = await waiting(m.user.id);
    const a = await q.staff();
    const b = await q.staff();
    await q.t.services.console.claimText(a, item.id);
    expect(await refusal(q.t.services.console.claimText(b, item.id))).toBe('409 item_claimed');
    expect(await refusal(q.t.services.console.decideText(b, item.id, { action: 'approve' }))).toBe('409 text_not_claimed');
    q.t.clock.advance(CLAIM_MS + 1000);
    await q.t.services.console.claimText(b, item.id);
    expect(await q.t.services.console.decideText(b, item.id, { action: 'approve' })).toEqual({ status: 'approved', decision_id: null });
    expect(await waiting(m.user.id)).toEqual([]);
    expect(await refusal(q.t.services.console.claimText(a, item.id))).toBe('409 text_already_decided');
    const audit = await q.db().select().from(auditLog).where(and(eq(auditLog.objectType, 'text_review'), eq(auditLog.objectId, String(item.id))));
    expect(audit.map((r) => r.action).sort()).toEqual(['text.claim', 'text.claim', 'text.decide']);
  });

  it('removes a name (a neutral one instead) with a statement of reasons; an appeal upheld puts it back', async () => {
    const m = await signUp(q.t, { name: 'Rude Name' });
    const [item] = await waiting(m.user.id);
    const mod = await q.staff();
    await q.t.services.console.claimText(mod, item.id);
    expect(await refusal(q.t.services.console.decideText(mod, item.id, { action: 'remove', ground: 'no_such' as 'terms_hate' }))).toBe('400 invalid_input');
    const { status, decision_id } = await q.t.services.console.decideText(mod, item.id, { action: 'remove', ground: 'terms_hate', facts: 'Insulting name.' });
    expect(status).toBe('removed');
    expect((await profile(m.user.id)).name).toBe(`#${m.user.id}`);
    const view = await q.t.services.statements.view(m.actor, decision_id!);
    expect(view).toMatchObject({ restriction: 'text_removed', content: { kind: 'name' }, ground: 'terms_hate', facts: 'Insulting name.', can_appeal: true });
    await q.t.services.statements.appeal(m.actor, decision_id!, undefined, { text: 'It is my real family name.' });
    const [appeal] = await q.t.services.console.appealQueue(await q.staff()).then((q) => q.items.filter((i) => i.decision_id === decision_id));
    const other = await q.staff();
    await q.t.services.console.claimAppeal(other, appeal.id);
    await q.t.services.console.decideAppeal(other, appeal.id, { outcome: 'reversed' });
    expect((await profile(m.user.id)).name).toBe('Rude Name');
    const [decision] = await q.db().select().from(moderationDecisions).where(eq(moderationDecisions.id, decision_id!));
    expect(decision.status).toBe('reversed');
  });

  it('empties a removed about-me text, and a newer text in the meantime ends the hold', async () => {
    const m = await signUp(q.t, { name: 'Plain Name' });
    await edit(m.actor, { name: 'Plain Name', about: 'Send me money' });
    const [item] = (await waiting(m.user.id)).filter((r) => r.field === 'about');
    const mod = await q.staff();
    await q.t.services.console.claimText(mod, item.id);
    await edit(m.actor, { name: 'Plain Name', about: 'Send me lots of money' });
    expect(await refusal(q.t.services.console.decideText(mod, item.id, { action: 'remove', ground: 'terms_scam' }))).toBe('409 text_not_claimed');
    await q.t.services.console.claimText(mod, item.id);
    await q.t.services.console.decideText(mod, item.id, { action: 'remove', ground: 'terms_scam' });
    expect((await profile(m.user.id)).about).toBe('');
    const [decision] = await q.db().select().from(moderationDecisions).where(eq(moderationDecisions.memberId, m.user.id));
    expect(decision).toMatchObject({ restriction: 'text_removed', contentKind: 'about', removed: { about: 'Send me lots of money' } });
  });

  it('refuses members and staff without the role or of another site', async () => {
    const m = await signUp(q.t, { name: 'Guarded Name' });
    const [item] = await waiting(m.user.id);
    expect(await refusal(q.t.services.console.claimText(m.actor, item.id))).toBe('403 forbidden');
    expect(await refusal(q.t.services.console.claimText(await q.staff(['support']), item.id))).toBe('403 forbidden');
    expect(await refusal(q.t.services.console.claimText(await q.staff(['moderator'], [q.t.siteId + 1000]), item.id))).toBe('403 forbidden');
    expect(await refusal(q.t.services.console.claimText(await q.staff(), 2_000_000_000))).toBe('404 not_found');
  });
});
