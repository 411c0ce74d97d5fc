import { and, count, eq, isNull } from 'drizzle-orm';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LANGUAGE_CODES } from '#common/languages.ts';
import type { StaffRoleName } from '#common/staff.ts';
import { STAFF_ROLES } from '#common/staff.ts';
import type { Actor, MemberActor, StaffActor } from '../actor.ts';
import {
  appeals, auditLog, companies, conversations, creditPackagePrices, creditPackages, discountCodes, gifts, memberFlags, memberReports, messages, moderationDecisions, notices, orders, photos, staffPasskeys,
  sitePageTexts, sitePageTokens, textReviews, users,
} from '../db/schema.ts';
import { banInTx } from '../moderation/bans.service.ts';
import { csvCell } from '#common/csv.ts';
import { relyingParty } from './staff-passkeys.ts';
import { SoftAuthenticator } from '../../tests/helpers/soft-authenticator.ts';
import type { Services } from '../use-cases.ts';
import { createStaff, SYSTEM, type TestStaff } from '../../tests/helpers/staff.ts';
import { createTestApp, DATABASE_KINDS, signUp, type TestApp } from '../../tests/helpers/test-app.ts';

type ConsoleUseCase = keyof Services['console'];

const RP = relyingParty('http://localhost:3000', 'Amora');

interface Case {
  /** Calls the use case as `actor`; `staff` is a fresh staff member of the case's own (its token, its sessions). */
  call: (s: Services, actor: Actor, staff: TestStaff, member: MemberActor) => Promise<unknown>;
  /** The role it needs (admin of every site for `'admin'`); null: any staff member, for their own account. */
  role: StaffRoleName | null;
  /** The audit action an allowed call writes, in the same transaction; null for screens that read no member's data. */
  audits: string | null;
  /**
   * A list that narrows to the staff member's sites instead of refusing: staff of another site get through and see
   * none of this site's rows (their own tests check that).
   */
  narrows?: true;
  /** The member it acts on has not confirmed their address yet. */
  unconfirmed?: true;
  /** Admins of the subject's site alone get through too (an admin screen of one site, not of every site). */
  siteAdmin?: true;
  /** What staff of another site get, when the thing is as unknown to them as a missing one (default 403). */
  elsewhere?: '404 not_found';
}

/**
 * Every console use case, by name. The first test fails when services.console has one this table does not name, so
 * a new screen or action cannot go without the checks below: visitors, members, jobs, staff without the role and
 * staff of another site are refused (and nothing is written); the allowed staff member gets through, and an action
 * writes exactly one audit row naming them.
 */
const CASES: Record<ConsoleUseCase, Case> = {
  account: { call: (s, a) => s.console.account(a), role: null, audits: null },
  tokens: { call: (s, a) => s.console.tokens(a), role: null, audits: null },
  createToken: { call: (s, a) => s.console.createToken(a, { name: 'script', scopes: ['support'] }), role: null, audits: 'staff.api_token.create' },
  revokeToken: {
    call: async (s, a, staff) => s.console.revokeToken(a, (await s.console.tokens(staff.actor))[0]?.id ?? 2_000_000_000),
    role: null, audits: 'staff.api_token.revoke',
  },
  signOutEverywhere: { call: (s, a) => s.console.signOutEverywhere(a), role: null, audits: 'staff.sign_out_everywhere' },
  passkeys: { call: (s, a) => s.console.passkeys(a), role: null, audits: null },
  passkeyOptions: { call: (s, a) => s.console.passkeyOptions(a, RP), role: null, audits: null },
  addPasskey: {
    call: async (s, a, staff) => {
      const { options, state } = await s.console.passkeyOptions(staff.actor, RP);
      return s.console.addPasskey(a, { state, name: 'Laptop', credential: new SoftAuthenticator(RP.origin).register(options) }, RP);
    },
    role: null, audits: 'staff.passkey.add',
  },
  removePasskey: { call: async (s, a, staff) => s.console.removePasskey(a, await passkeyOf(s, staff)), role: null, audits: 'staff.passkey.remove' },
  auditLog: { call: (s, a) => s.console.auditLog(a, { action: 'staff.' }), role: 'admin', audits: null },
  auditLogCsv: { call: (s, a) => s.console.auditLogCsv(a, {}), role: 'admin', audits: null },
  sites: { call: (s, a) => s.console.sites(a), role: null, audits: null },
  transparencyReport: { call: (s, a, _staff, m) => s.console.transparencyReport(a, { site: m.siteId }), role: 'admin', audits: null, siteAdmin: true },
  transparencyReportCsv: { call: (s, a, _staff, m) => s.console.transparencyReportCsv(a, { site: m.siteId }), role: 'admin', audits: null, siteAdmin: true },
  dashboard: { call: (s, a, _staff, m) => s.console.dashboard(a, { site: m.siteId }), role: 'finance', audits: null },
  dashboardCsv: { call: (s, a, _staff, m) => s.console.dashboardCsv(a, { site: m.siteId, table: 'activity' }), role: 'finance', audits: null },
  findMembers: { call: (s, a) => s.console.findMembers(a, { query: 'Tester' }), role: 'support', audits: 'member.search', narrows: true },
  member: { call: (s, a, _staff, m) => s.console.member(a, m.userId), role: 'support', audits: 'member.open' },
  adjustCredits: {
    call: (s, a, staff, m) => s.console.adjustCredits(a, m.userId, { credits: 5, reason: 'Goodwill', idempotencyKey: `case-${staff.actor.staffId}-key` }),
    role: 'support', audits: 'member.adjust_credits',
  },
  readConversation: {
    call: async (s, a, _staff, m) => s.console.readConversation(a, m.userId, await reportedConversationOf(s, m)), role: 'support', audits: 'member.read_conversation',
  },
  endSessions: { call: (s, a, _staff, m) => s.console.endSessions(a, m.userId), role: 'support', audits: 'member.end_sessions' },
  resendActivation: { call: (s, a, _staff, m) => s.console.resendActivation(a, m.userId), role: 'support', audits: 'member.resend_activation', unconfirmed: true },
  sendPasswordReset: { call: (s, a, _staff, m) => s.console.sendPasswordReset(a, m.userId), role: 'support', audits: 'member.send_password_reset' },
  setFictional: {
    call: (s, a, _staff, m) => s.console.setFictional(a, m.userId, { fictional: true, reason: 'Answered by the site team' }), role: 'moderator', audits: 'member.fictional',
  },
  banMember: { call: (s, a, _staff, m) => s.console.banMember(a, m.userId, { reason: 'abuse', note: 'insults' }), role: 'moderator', audits: 'member.ban', elsewhere: '404 not_found' },
  unbanMember: {
    call: async (s, a, _staff, m) => {
      await s.db.transaction((tx) => banInTx(tx, () => new Date(), m.userId, 'other', 'by mistake'));
      return s.console.unbanMember(a, m.userId, 'banned by mistake');
    },
    role: 'moderator', audits: 'member.unban', elsewhere: '404 not_found',
  },
  suspendMember: {
    call: (s, a, _staff, m) => s.console.suspendMember(a, m.userId, { days: 3, ground: 'terms_harassment', facts: 'insults in chat' }),
    role: 'moderator', audits: 'member.suspend', elsewhere: '404 not_found',
  },
  endSuspension: {
    call: async (s, a, _staff, m) => {
      await s.db.update(users).set({ suspendedUntil: new Date('2100-01-01T00:00:00Z') }).where(eq(users.id, m.userId));
      return s.console.endSuspension(a, m.userId, 'settled with the member');
    },
    role: 'moderator', audits: 'member.end_suspension', elsewhere: '404 not_found',
  },
  refundPreview: {
    call: async (s, a, _staff, m) => s.console.refundPreview(a, await completedOrder(s, m), 500), role: 'finance', audits: null, elsewhere: '404 not_found',
  },
  refundOrder: {
    call: async (s, a, _staff, m) => s.console.refundOrder(a, await completedOrder(s, m), { reason: 'Charged twice', amountCents: 500, idempotencyKey: 'console-case-refund' }),
    role: 'finance', audits: 'order.refund', elsewhere: '404 not_found',
  },
  flags: { call: (s, a) => s.console.flags(a), role: 'moderator', audits: null, narrows: true },
  flag: { call: async (s, a, _staff, m) => s.console.flag(a, await flagOf(s, m)), role: 'moderator', audits: 'flag.open' },
  resolveFlag: { call: async (s, a, _staff, m) => s.console.resolveFlag(a, await flagOf(s, m)), role: 'moderator', audits: 'flag.resolve' },
  reportQueue: { call: (s, a) => s.console.reportQueue(a), role: 'moderator', audits: null, narrows: true },
  claimReport: { call: async (s, a, _staff, m) => s.console.claimReport(a, await reportOf(s, m)), role: 'moderator', audits: 'report.claim' },
  decideReport: {
    call: async (s, a, _staff, m) => s.console.decideReport(a, await reportOf(s, m, a), { action: 'dismiss', ground: 'terms_general' }),
    role: 'moderator', audits: 'report.decide',
  },
  noticeQueue: { call: (s, a) => s.console.noticeQueue(a), role: 'moderator', audits: null, narrows: true },
  claimNotice: { call: async (s, a, _staff, m) => s.console.claimNotice(a, await noticeOf(s, m)), role: 'moderator', audits: 'notice.claim' },
  decideNotice: {
    call: async (s, a, _staff, m) => s.console.decideNotice(a, await noticeOf(s, m, a), { action: 'dismiss', ground: 'terms_general', decision: 'Nothing against the rules.' }),
    role: 'moderator', audits: 'notice.decide',
  },
  appealQueue: { call: (s, a) => s.console.appealQueue(a), role: 'moderator', audits: null, narrows: true },
  claimAppeal: { call: async (s, a, _staff, m) => s.console.claimAppeal(a, await appealOf(s, m)), role: 'moderator', audits: 'appeal.claim' },
  decideAppeal: {
    call: async (s, a, _staff, m) => s.console.decideAppeal(a, await appealOf(s, m, a), { outcome: 'confirmed' }),
    role: 'moderator', audits: 'appeal.decide',
  },
  textQueue: { call: (s, a) => s.console.textQueue(a), role: 'moderator', audits: null, narrows: true },
  claimText: { call: async (s, a, _staff, m) => s.console.claimText(a, await textOf(s, m)), role: 'moderator', audits: 'text.claim' },
  decideText: {
    call: async (s, a, _staff, m) => s.console.decideText(a, await textOf(s, m, a), { action: 'approve' }),
    role: 'moderator', audits: 'text.decide',
  },
  queueCounts: { call: (s, a) => s.console.queueCounts(a), role: 'moderator', audits: null, narrows: true },
  photoQueue: { call: (s, a) => s.console.photoQueue(a), role: 'moderator', audits: null, narrows: true },
  claimPhoto: {
    call: async (s, a, _staff, m) => s.console.claimPhoto(a, { kind: 'profile', id: await photoOf(s, m) }), role: 'moderator', audits: 'photo.claim', elsewhere: '404 not_found',
  },
  moderatePhoto: {
    call: async (s, a, _staff, m) => s.console.moderatePhoto(a, { kind: 'profile', id: await photoOf(s, m), decision: 'approve' }),
    role: 'moderator', audits: 'photo.approve', elsewhere: '404 not_found',
  },
  siteList: { call: (s, a) => s.console.siteList(a), role: 'admin', audits: null, siteAdmin: true, narrows: true },
  siteSettings: { call: (s, a, _staff, m) => s.console.siteSettings(a, m.siteId), role: 'admin', audits: null, siteAdmin: true },
  newSiteForm: { call: (s, a) => s.console.newSiteForm(a), role: 'admin', audits: null },
  createSite: {
    call: async (s, a, _staff, m) => s.console.createSite(a, { ...(await siteFormOf(s, m.siteId)), name: 'Case site', domain: `case-${Math.random().toString(36).slice(2)}.test` }),
    role: 'admin', audits: 'site.create',
  },
  updateSite: {
    call: async (s, a, _staff, m) => s.console.updateSite(a, m.siteId, { ...(await siteFormOf(s, m.siteId)), indexTitle: `Case ${Math.random()}` }),
    role: 'admin', audits: 'site.update', siteAdmin: true,
  },
  companyList: { call: (s, a) => s.console.companyList(a), role: 'admin', audits: null },
  company: { call: async (s, a) => s.console.company(a, await companyOf(s)), role: 'admin', audits: null },
  createCompany: { call: (s, a) => s.console.createCompany(a, COMPANY), role: 'admin', audits: 'company.create' },
  updateCompany: { call: async (s, a) => s.console.updateCompany(a, await companyOf(s), { ...COMPANY, city: 'Utrecht' }), role: 'admin', audits: 'company.update' },
  setPaymentAccount: {
    call: async (s, a) => s.console.setPaymentAccount(a, await companyOf(s), { provider: 'mollie', apiKey: `test_${'a'.repeat(30)}` }),
    role: 'admin', audits: 'company.payment_account',
  },
  packageList: { call: (s, a, _staff, m) => s.console.packageList(a, m.siteId), role: 'finance', audits: null },
  packageEditor: { call: async (s, a, _staff, m) => s.console.packageEditor(a, m.siteId, await packageOf(s)), role: 'finance', audits: null },
  createPackage: { call: (s, a) => s.console.createPackage(a, PACKAGE), role: 'finance', audits: 'package.create' },
  updatePackage: { call: async (s, a) => s.console.updatePackage(a, await packageOf(s), { ...PACKAGE, credits: '25' }), role: 'finance', audits: 'package.update' },
  removePackage: { call: async (s, a) => s.console.removePackage(a, await packageOf(s)), role: 'finance', audits: 'package.delete' },
  giftList: { call: (s, a) => s.console.giftList(a), role: 'finance', audits: null, narrows: true },
  giftEditor: { call: async (s, a) => s.console.giftEditor(a, await giftOf(s)), role: 'finance', audits: null },
  createGift: { call: async (s, a) => s.console.createGift(a, GIFT, await giftPng()), role: 'finance', audits: 'gift.create' },
  updateGift: { call: async (s, a, _staff, m) => s.console.updateGift(a, await giftOf(s), { ...GIFT, credits: String(m.userId % 1000) }, null), role: 'finance', audits: 'gift.update' },
  retireGift: { call: async (s, a) => s.console.retireGift(a, await giftOf(s, true)), role: 'finance', audits: 'gift.retire' },
  discountList: { call: (s, a, _staff, m) => s.console.discountList(a, m.siteId), role: 'finance', audits: null },
  discountEditor: { call: async (s, a, _staff, m) => s.console.discountEditor(a, m.siteId, await discountOf(s, m)), role: 'finance', audits: null },
  createDiscount: { call: (s, a, _staff, m) => s.console.createDiscount(a, m.siteId, { ...DISCOUNT, code: `NEW${m.userId}` }), role: 'finance', audits: 'discount.create' },
  updateDiscount: { call: async (s, a, _staff, m) => s.console.updateDiscount(a, m.siteId, await discountOf(s, m), { ...DISCOUNT, code: `CASE${m.userId}`, percentBp: '15' }), role: 'finance', audits: 'discount.update' },
  deactivateDiscount: { call: async (s, a, _staff, m) => s.console.deactivateDiscount(a, m.siteId, await discountOf(s, m)), role: 'finance', audits: 'discount.deactivate' },
  tokenList: { call: (s, a, _staff, m) => s.console.tokenList(a, m.siteId), role: 'admin', audits: null, siteAdmin: true },
  token: { call: (s, a, _staff, m) => s.console.token(a, m.siteId, 'nearby'), role: 'admin', audits: null, siteAdmin: true },
  saveToken: {
    call: (s, a, _staff, m) => s.console.saveToken(a, m.siteId, null, { path: `case-${Math.random().toString(36).slice(2, 10)}`, target: 'page:faq' }),
    role: 'admin', audits: 'page_token.create', siteAdmin: true,
  },
  deleteToken: {
    call: async (s, a, _staff, m) => {
      const path = `gone-${Math.random().toString(36).slice(2, 10)}`;
      await s.db.insert(sitePageTokens).values({ siteId: m.siteId, token: path, page: 'faq' });
      return s.console.deleteToken(a, m.siteId, path);
    },
    role: 'admin', audits: 'page_token.delete', siteAdmin: true,
  },
  pageTextList: { call: (s, a, _staff, m) => s.console.pageTextList(a, m.siteId), role: 'admin', audits: null, siteAdmin: true },
  pageText: { call: (s, a, _staff, m) => s.console.pageText(a, m.siteId, 'nl', 'faq'), role: 'admin', audits: null, siteAdmin: true },
  previewPageText: { call: (s, a, _staff, m) => s.console.previewPageText(a, m.siteId, 'nl', { markdown: '# FAQ' }), role: 'admin', audits: null, siteAdmin: true },
  savePageText: {
    call: (s, a, _staff, m) => s.console.savePageText(a, m.siteId, 'nl', 'cookies', { markdown: `# Cookies ${Math.random()}` }),
    role: 'admin', audits: 'page_text.save', siteAdmin: true,
  },
  resetPageText: {
    call: async (s, a, _staff, m) => {
      await s.db.insert(sitePageTexts).values({ siteId: m.siteId, language: 'da', page: 'faq', markdown: '# FAQ', versionDate: new Date() }).onConflictDoNothing();
      return s.console.resetPageText(a, m.siteId, 'da', 'faq');
    },
    role: 'admin', audits: 'page_text.reset', siteAdmin: true,
  },
  mailTextList: { call: (s, a, _staff, m) => s.console.mailTextList(a, m.siteId), role: 'admin', audits: null, siteAdmin: true },
  mailText: { call: (s, a, _staff, m) => s.console.mailText(a, m.siteId, 'de', 'activation'), role: 'admin', audits: null, siteAdmin: true },
  saveMailText: {
    call: (s, a, _staff, m) => s.console.saveMailText(a, m.siteId, 'de', 'activation', { button: `Los ${Math.random()}` }),
    role: 'admin', audits: 'mail_text.save', siteAdmin: true,
  },
  sendTestMail: { call: (s, a, _staff, m) => s.console.sendTestMail(a, m.siteId, 'de', 'activation'), role: 'admin', audits: null, siteAdmin: true },
};

/** A credit package as the console's form sends it. */
const PACKAGE = { credits: '20', popular: 'on', sort: '5', active: 'on', prices: { EUR: '1999', GBP: '' } };

/** A fresh credit package (one per call), written without the console. */
async function packageOf(s: Services): Promise<number> {
  const [row] = await s.db.insert(creditPackages).values({ credits: 20, popular: true, sort: 5 }).returning({ id: creditPackages.id });
  await s.db.insert(creditPackagePrices).values({ packageId: row.id, currency: 'EUR', amountCents: 1999 });
  return row.id;
}

/** A gift as the console's form sends it: a name in every language, the site's gift price. */
const GIFT = { names: Object.fromEntries(LANGUAGE_CODES.map((l) => [l, `Case ${l}`])), credits: '', sort: '0', active: 'on' };
const giftPng = () => sharp({ create: { width: 32, height: 32, channels: 4, background: '#e33' } }).png().toBuffer();

/** A gift (a fresh one that is offered when `fresh`, else the first one). */
async function giftOf(s: Services, fresh = false): Promise<number> {
  const [found] = fresh ? [] : await s.db.select({ id: gifts.id }).from(gifts).orderBy(gifts.id).limit(1);
  if (found) return found.id;
  const [row] = await s.db.insert(gifts).values({ slug: `case-${Math.random().toString(36).slice(2)}` }).returning({ id: gifts.id });
  return row.id;
}

/** A discount code as the console's form sends it (10%, once per member). */
const DISCOUNT = { code: 'CASE', kind: 'code', percentBp: '10', minimums: {}, country: '', oncePerMember: 'on', startsOn: '', endsOn: '', active: 'on' };

/** The member's site's code CASE<member id> (made once, then found again). */
async function discountOf(s: Services, m: MemberActor): Promise<number> {
  const [found] = await s.db.select({ id: discountCodes.id }).from(discountCodes).where(eq(discountCodes.code, `CASE${m.userId}`));
  if (found) return found.id;
  const [row] = await s.db.insert(discountCodes).values({ siteId: m.siteId, code: `CASE${m.userId}`, percentBp: 1000 }).returning({ id: discountCodes.id });
  return row.id;
}

/** A company's details as the console's form sends them. */
const COMPANY = { name: 'Case B.V.', address: 'Keizersgracht 1', city: 'Amsterdam', country: 'NL', kvk: '12345678', vatNumbers: 'NL001234567B01', tradenames: 'Case', supportPhone: '', deleteDiscount: '0' };

/** A fresh company (one per call). */
async function companyOf(s: Services): Promise<number> {
  const [row] = await s.db.insert(companies).values({ name: 'Case', address: 'Street 1', kvk: '1', city: 'Amsterdam', country: 'NL' }).returning({ id: companies.id });
  return row.id;
}

/** The site's settings as its console form holds them (read as an admin of every site; reading writes nothing). */
async function siteFormOf(s: Services, siteId: number) {
  return (await s.console.siteSettings({ kind: 'staff', staffId: 0, roles: ['admin'], siteIds: null, companyIds: null }, siteId)).values;
}

/**
 * A claim for ten minutes by `holder` when it is staff (written directly: the claim's own audit row would be a second
 * row for the decision's case), none otherwise.
 */
function holdFor(s: Services, holder?: Actor) {
  return holder?.kind === 'staff'
    ? { claimedBy: holder.staffId, claimedUntil: new Date(s.clock().getTime() + 10 * 60_000) }
    : { claimedBy: null, claimedUntil: null };
}

/** An open report about the member's profile (made once, then found again), held by `holder`. */
async function reportOf(s: Services, m: MemberActor, holder?: Actor): Promise<number> {
  const [found] = await s.db.select({ id: memberReports.id }).from(memberReports).where(eq(memberReports.reportedId, m.userId));
  const id = found?.id ?? (await s.db.insert(memberReports).values({
    siteId: m.siteId, reporterId: m.userId, reportedId: m.userId, kind: 'profile', reason: 'spam', createdAt: s.clock(),
  }).returning({ id: memberReports.id }))[0].id;
  await s.db.update(memberReports).set(holdFor(s, holder)).where(eq(memberReports.id, id));
  return id;
}

/** A conversation of the member with another one, in which the other reported the member's message. */
async function reportedConversationOf(s: Services, m: MemberActor): Promise<number> {
  const [found] = await s.db.select({ id: messages.conversationId }).from(memberReports)
    .innerJoin(messages, eq(messages.id, memberReports.contentId)).where(and(eq(memberReports.kind, 'message'), eq(memberReports.reportedId, m.userId)));
  if (found) return found.id;
  const [other] = await s.db.insert(users).values({ siteId: m.siteId, email: `reporter-${m.userId}@example.org`, passwordHash: 'x', status: 'active' }).returning();
  const [low, high] = [m.userId, other.id].sort((a, b) => a - b);
  const [conversation] = await s.db.insert(conversations).values({ userLow: low, userHigh: high }).returning();
  const [message] = await s.db.insert(messages).values({ conversationId: conversation.id, senderId: m.userId, body: 'Send me your bank details' }).returning();
  await s.db.insert(memberReports).values({ siteId: m.siteId, reporterId: other.id, reportedId: m.userId, kind: 'message', contentId: message.id, reason: 'scam', createdAt: s.clock() });
  return conversation.id;
}

/** A received notice about the member's profile, held by `holder`. */
async function noticeOf(s: Services, m: MemberActor, holder?: Actor): Promise<string> {
  const reference = `CASE-${m.userId}`;
  await s.db.insert(notices).values({
    siteId: m.siteId, reference, followToken: 'case', kind: 'profile', contentRef: String(m.userId), reason: 'other',
    reporterEmail: 'notifier@example.org', bonaFide: true, createdAt: s.clock(),
  }).onConflictDoNothing();
  await s.db.update(notices).set(holdFor(s, holder)).where(eq(notices.reference, reference));
  return reference;
}

/** An open appeal of a decision about the member (decided on the command line, so no moderator is excluded), held by `holder`. */
async function appealOf(s: Services, m: MemberActor, holder?: Actor): Promise<number> {
  const [found] = await s.db.select({ id: appeals.id }).from(appeals).where(eq(appeals.memberId, m.userId));
  let id = found?.id;
  if (!id) {
    const [decision] = await s.db.insert(moderationDecisions).values({
      siteId: m.siteId, memberId: m.userId, token: `case-token-${m.userId}`, restriction: 'text_removed', contentKind: 'about', ground: 'terms_general', createdAt: s.clock(),
    }).returning({ id: moderationDecisions.id });
    id = (await s.db.insert(appeals).values({ decisionId: decision.id, memberId: m.userId, text: 'Please look at it again.', createdAt: s.clock() })
      .returning({ id: appeals.id }))[0].id;
  }
  await s.db.update(appeals).set(holdFor(s, holder)).where(eq(appeals.id, id));
  return id;
}

/** The member's name as it waits in the names and texts queue (queued at sign-up), held by `holder`. */
async function textOf(s: Services, m: MemberActor, holder?: Actor): Promise<number> {
  const [row] = await s.db.update(textReviews).set(holdFor(s, holder))
    .where(and(eq(textReviews.memberId, m.userId), eq(textReviews.field, 'name'))).returning({ id: textReviews.id });
  return row.id;
}

/** A profile photo of the member that no moderator has looked at. */
async function photoOf(s: Services, m: MemberActor): Promise<number> {
  const [found] = await s.db.select({ id: photos.id }).from(photos).where(eq(photos.userId, m.userId));
  if (found) return found.id;
  const [row] = await s.db.insert(photos).values({
    userId: m.userId, filename: `case-${m.userId}.webp`, thumbFilename: `case-${m.userId}-thumb.webp`, width: 10, height: 10, createdAt: s.clock(),
  }).returning({ id: photos.id });
  return row.id;
}

/** A passkey of the staff member's, stored as an earlier sign-up would have (no audit row of its own). */
async function passkeyOf(s: Services, staff: TestStaff): Promise<number> {
  const [row] = await s.db.insert(staffPasskeys).values({
    staffId: staff.actor.staffId, credentialId: `case-${staff.actor.staffId}-${Math.random().toString(36).slice(2)}`, publicKey: 'AA', rpId: RP.id, name: 'Phone',
  }).returning({ id: staffPasskeys.id });
  return row.id;
}

/** A completed order of the member's, within the refund window, for the refund case (one per call). */
async function completedOrder(s: Services, m: MemberActor): Promise<string> {
  const [pkg] = await s.db.select({ id: creditPackages.id }).from(creditPackages).limit(1);
  const id = `case-${m.userId}-${Math.random().toString(36).slice(2)}`;
  const now = new Date();
  await s.db.insert(orders).values({
    id, userId: m.userId, packageId: pkg.id, credits: 10, amountCents: 999, currency: 'EUR', paymentmethod: 'creditcard',
    status: 'completed', idempotencyKey: id, completedAt: now, createdAt: now,
  });
  return id;
}

/** The member's open flag (raised once, then found again), for the flag cases. */
async function flagOf(s: Services, m: MemberActor): Promise<number> {
  await s.flags.raise(s.db, { siteId: m.siteId, userId: m.userId, kind: 'off_site_contact', evidence: { matched: ['telegram'] } });
  const [row] = await s.db.select({ id: memberFlags.id }).from(memberFlags).where(and(eq(memberFlags.userId, m.userId), isNull(memberFlags.resolvedAt)));
  return row.id;
}

describe.each(DATABASE_KINDS)('console use cases on %s', (kind) => {
  let t: TestApp;
  let member: Actor;
  beforeAll(async () => {
    t = await createTestApp(kind, { profiles: 0 });
    member = (await signUp(t)).actor;
  });
  afterAll(() => t.close());

  const auditRows = async () => (await t.database.db.select({ n: count() }).from(auditLog))[0].n;
  const refusal = (work: Promise<unknown>) => work.then(() => 'allowed', (e: { status?: number; code?: string }) => `${e.status} ${e.code}`);

  it('has a case for every console use case', () => {
    expect(Object.keys(t.services.console).sort()).toEqual(Object.keys(CASES).sort());
  });

  it.each(Object.entries(CASES))('%s refuses visitors, members, jobs and staff outside its role or sites, and writes nothing for them', async (_name, c) => {
    // A staff member allowed everything else, whose token the case may act on.
    const owner = await createStaff(t, { roles: c.role ? [c.role] : ['support'] });
    let elsewhere: StaffActor | undefined;
    const refused: [string, Actor][] = [
      ['a visitor', { kind: 'visitor', siteId: t.siteId }],
      ['a member', member],
      ['a job', SYSTEM],
    ];
    if (c.role) {
      const others = STAFF_ROLES.filter((r) => r !== c.role && r !== 'admin');
      if (others.length) refused.push(['staff without the role', (await createStaff(t, { roles: others })).actor]);
      if (!c.narrows) elsewhere = (await createStaff(t, { roles: [c.role], siteIds: [t.siteId + 1000] })).actor;
      if (c.role === 'admin' && !c.siteAdmin) refused.push(['an admin of one site only', (await createStaff(t, { roles: ['admin'], siteIds: [t.siteId] })).actor]);
    }
    const subject = (await signUp(t, {}, { confirmed: !c.unconfirmed })).actor;
    const before = await auditRows();
    for (const [who, actor] of refused) expect(await refusal(c.call(t.services, actor, owner, subject)), who).toBe('403 forbidden');
    if (elsewhere) expect(await refusal(c.call(t.services, elsewhere, owner, subject)), 'staff of another site').toBe(c.elsewhere ?? '403 forbidden');
    expect(await auditRows(), 'audit rows written for refused calls').toBe(before);
  });

  it.each(Object.entries(CASES))('%s lets the allowed staff member through, and an action writes its audit row', async (_name, c) => {
    const staff = await createStaff(t, { roles: c.role ? [c.role] : ['support'] });
    const actor: StaffActor = staff.actor;
    const theirs = async () => (await t.database.db.select().from(auditLog).where(eq(auditLog.staffId, actor.staffId))).filter((r) => r.action === c.audits);
    const subject = (await signUp(t, {}, { confirmed: !c.unconfirmed })).actor;
    const before = await auditRows();
    const beforeTheirs = (await theirs()).length;
    expect(await refusal(c.call(t.services, actor, staff, subject))).toBe('allowed');
    if (!c.audits) {
      expect(await auditRows(), 'a screen that reads writes no audit row').toBe(before);
      return;
    }
    expect((await theirs()).length).toBe(beforeTheirs + 1);
    expect(await auditRows()).toBe(before + 1);
  });

  it('filters, sorts and pages the audit log, and its CSV defuses formulas', async () => {
    const admin = await createStaff(t, { roles: ['admin'], name: '=HYPERLINK("http://evil.example")', knownToken: 'amora_st_console-test-0123456789' });
    await t.services.console.createToken(admin.actor, { name: '+1 token, "quoted"', scopes: ['admin'] });
    t.clock.advance(1000);
    await t.services.console.signOutEverywhere(admin.actor);
    const mine = await t.services.console.auditLog(admin.actor, { staff: admin.actor.staffId });
    expect(mine.rows.map((r) => r.action)).toEqual(['staff.sign_out_everywhere', 'staff.api_token.create']);
    expect(mine.total).toBe(2);
    const oldest = await t.services.console.auditLog(admin.actor, { staff: admin.actor.staffId, sort: 'oldest' });
    expect(oldest.rows.map((r) => r.action)).toEqual(['staff.api_token.create', 'staff.sign_out_everywhere']);
    expect((await t.services.console.auditLog(admin.actor, { staff: admin.actor.staffId, action: 'staff.api_token.create' })).total).toBe(1);
    expect((await t.services.console.auditLog(admin.actor, { staff: admin.actor.staffId, object: `staff_member:${admin.actor.staffId}` })).total).toBe(1);
    expect((await t.services.console.auditLog(admin.actor, { staff: admin.actor.staffId, from: '2000-01-01', to: '2000-01-02' })).total).toBe(0);
    const day = t.clock().toISOString().slice(0, 10);
    expect((await t.services.console.auditLog(admin.actor, { staff: admin.actor.staffId, from: day, to: day })).total).toBe(2);
    expect((await t.services.console.auditLog(admin.actor, { staff: admin.actor.staffId, page: 2 })).rows).toEqual([]);

    const { csv, filename } = await t.services.console.auditLogCsv(admin.actor, { staff: admin.actor.staffId, sort: 'oldest' });
    expect(filename).toMatch(/^audit-log-\d{4}-\d{2}-\d{2}\.csv$/);
    const lines = csv.trimEnd().split('\r\n');
    expect(lines[0]).toBe('id,at,staff_id,staff_name,role,action,object_type,object_id,member_id,ip,before,after');
    expect(lines).toHaveLength(3);
    // The name would run as a formula in a spreadsheet: it starts with an apostrophe, quoted for its quotes.
    expect(lines[1]).toContain(`"'=HYPERLINK(""http://evil.example"")"`);
    expect(lines[1]).toContain('staff.api_token.create');
    expect(lines[1]).toContain('"{""name"":""+1 token, \\""quoted\\"""",""scopes"":[""admin""]}"');
  });
});

describe('a CSV cell', () => {
  it.each([
    ['=1+1', "'=1+1"], ['+31 6 1234', "'+31 6 1234"], ['-2', "'-2"], ['@SUM(A1)', "'@SUM(A1)"], ['\t=1', "'\t=1"],
    ['a, b', '"a, b"'], ['say "hi"', '"say ""hi"""'], ['two\nlines', '"two\nlines"'], [null, ''], [42, '42'], ['plain', 'plain'],
  ] as const)('%j → %j', (value, cell) => {
    expect(csvCell(value)).toBe(cell);
  });
});
