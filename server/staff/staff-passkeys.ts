import {
  generateAuthenticationOptions, generateRegistrationOptions, verifyAuthenticationResponse, verifyRegistrationResponse,
  type AuthenticationResponseJSON, type PublicKeyCredentialCreationOptionsJSON, type PublicKeyCredentialRequestOptionsJSON,
  type RegistrationResponseJSON,
} from '@simplewebauthn/server';
import { and, desc, eq, isNull, lt, ne, or } from 'drizzle-orm';
import { z } from 'zod';
import type { Db, Tx } from '../db/client.ts';
import { staffMembers, staffPasskeys } from '../db/schema.ts';
import type { Clock } from '../infra/clock.ts';
import type { CookieSigner } from '../infra/cookie-signer.ts';
import { AppError, notFound } from '../infra/errors.ts';
import type { AuditLog } from './audit.ts';
import type { StaffActor } from './staff-actor.ts';

/**
 * The console's origin as WebAuthn names it: passkeys are bound to the domain (`id`) and checked against the origin
 * the browser reports. Built from the site's canonical origin, never from the Host header.
 */
export interface RelyingParty { origin: string; id: string; name: string }

export function relyingParty(baseUrl: string, siteName: string): RelyingParty {
  const url = new URL(baseUrl);
  return { origin: url.origin, id: url.hostname, name: siteName };
}

/** How long a page's passkey ceremony may take, from the options to the answer. */
const CEREMONY_MS = 10 * 60_000;
const ADD_PURPOSE = 'staff-passkey-add';
/** A staff member's passkeys on one domain are few; more would be a leak, not a need. */
const MAX_PASSKEYS = 10;
/** A credential as the browser serialises it stays far below this; anything larger is refused unread. */
const MAX_RESPONSE_CHARS = 16_384;

const b64url = z.string().min(1).max(4096).regex(/^[A-Za-z0-9_-]+$/);
/** The shape of a browser's WebAuthn answer (the library checks the content). */
const credentialJson = z.object({
  id: b64url, rawId: b64url, type: z.literal('public-key'), clientExtensionResults: z.record(z.string(), z.unknown()).default({}),
  authenticatorAttachment: z.enum(['platform', 'cross-platform']).optional(),
  response: z.record(z.string(), z.unknown()),
});

/** Reads a credential the page posted as JSON text; null when it is not one. */
export function parseCredential(text: unknown): z.output<typeof credentialJson> | null {
  if (typeof text !== 'string' || text.length > MAX_RESPONSE_CHARS) return null;
  try {
    const parsed = credentialJson.safeParse(JSON.parse(text));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

const nameInput = z.string().trim().min(1).max(60).regex(/^\P{Cc}*$/u);

export interface ConsolePasskey { id: number; name: string; domain: string; createdAt: string; lastUsedAt: string | null }

const passkeyFailed = () => new AppError(400, 'passkey_failed');

/**
 * Passkeys as a second factor beside TOTP (decision 062): a signed-in staff member adds one on the domain they use,
 * names it and may remove it; signing in, after the password, the passkey stands in for the code. Adding and removing
 * are audited; the sign-in's audit row says which factor was used.
 */
export function createStaffPasskeys(deps: { db: Db; clock: Clock; audit: AuditLog; cookies: CookieSigner }) {
  const { db, clock, audit, cookies } = deps;

  const ofStaffOn = (staffId: number, rpId: string) => db.select().from(staffPasskeys)
    .where(and(eq(staffPasskeys.staffId, staffId), eq(staffPasskeys.rpId, rpId)));

  return {
    /** The staff member's own passkeys, newest first. */
    async passkeys(actor: StaffActor): Promise<ConsolePasskey[]> {
      const rows = await db.select().from(staffPasskeys).where(eq(staffPasskeys.staffId, actor.staffId)).orderBy(desc(staffPasskeys.id));
      return rows.map((r) => ({ id: r.id, name: r.name, domain: r.rpId, createdAt: r.createdAt.toISOString(), lastUsedAt: r.lastUsedAt?.toISOString() ?? null }));
    },

    /**
     * What the browser needs to make a passkey, and the signed state that ties its answer to this staff member and
     * challenge. Writes nothing: a page may ask for it when it loads.
     */
    async passkeyOptions(actor: StaffActor, rp: RelyingParty): Promise<{ options: PublicKeyCredentialCreationOptionsJSON; state: string }> {
      const [staff] = await db.select({ email: staffMembers.email, name: staffMembers.name }).from(staffMembers).where(eq(staffMembers.id, actor.staffId));
      if (!staff) throw notFound();
      const existing = await ofStaffOn(actor.staffId, rp.id);
      const options = await generateRegistrationOptions({
        rpName: rp.name, rpID: rp.id, userName: staff.email, userDisplayName: staff.name,
        userID: new TextEncoder().encode(`staff-${actor.staffId}`), attestationType: 'none',
        excludeCredentials: existing.map((p) => ({ id: p.credentialId, transports: p.transports })),
        authenticatorSelection: { residentKey: 'preferred', userVerification: 'required' },
        timeout: CEREMONY_MS,
      });
      const state = await cookies.sign(ADD_PURPOSE, `${actor.staffId}:${clock().getTime() + CEREMONY_MS}:${options.challenge}`);
      return { options, state };
    },

    /** Keeps the passkey the browser made from `passkeyOptions`; 400 passkey_failed for anything that does not verify. */
    async addPasskey(actor: StaffActor, input: { state: string; name: string; credential: unknown }, rp: RelyingParty, from: { ip?: string | null } = {}): Promise<{ id: number }> {
      const name = nameInput.safeParse(input.name);
      if (!name.success) throw new AppError(400, 'invalid_input', {}, { name: 'console.errors.passkey_name' });
      const [staffId, expires, challenge] = (await cookies.verify(ADD_PURPOSE, input.state))?.split(':') ?? [];
      if (Number(staffId) !== actor.staffId || !(Number(expires) > clock().getTime())) throw new AppError(400, 'passkey_expired');
      const response = parseCredential(input.credential) as RegistrationResponseJSON | null;
      if (!response) throw passkeyFailed();
      const verification = await verifyRegistrationResponse({
        response, expectedChallenge: challenge, expectedOrigin: rp.origin, expectedRPID: rp.id, requireUserVerification: true,
      }).catch(() => null);
      if (!verification?.verified) throw passkeyFailed();
      const { credential } = verification.registrationInfo;
      return db.transaction(async (tx) => {
        if ((await tx.$count(staffPasskeys, eq(staffPasskeys.staffId, actor.staffId))) >= MAX_PASSKEYS) throw new AppError(409, 'passkey_limit');
        const [row] = await tx.insert(staffPasskeys).values({
          staffId: actor.staffId, credentialId: credential.id, publicKey: Buffer.from(credential.publicKey).toString('base64url'),
          counter: credential.counter, transports: credential.transports ?? [], rpId: rp.id, name: name.data, createdAt: clock(),
        }).onConflictDoNothing({ target: staffPasskeys.credentialId }).returning({ id: staffPasskeys.id });
        if (!row) throw new AppError(409, 'passkey_known');
        await audit.record(tx, {
          actor, role: actor.roles[0], action: 'staff.passkey.add', objectType: 'staff_passkey', objectId: row.id,
          after: { name: name.data, domain: rp.id }, ip: from.ip,
        });
        return { id: row.id };
      });
    },

    /** Removes one of the staff member's own passkeys (someone else's is as unknown as a missing one). */
    async removePasskey(actor: StaffActor, passkeyId: number, from: { ip?: string | null } = {}): Promise<void> {
      await db.transaction(async (tx) => {
        const [removed] = await tx.delete(staffPasskeys)
          .where(and(eq(staffPasskeys.id, passkeyId), eq(staffPasskeys.staffId, actor.staffId)))
          .returning({ name: staffPasskeys.name, domain: staffPasskeys.rpId });
        if (!removed) throw notFound();
        await audit.record(tx, {
          actor, role: actor.roles[0], action: 'staff.passkey.remove', objectType: 'staff_passkey', objectId: passkeyId,
          before: removed, ip: from.ip,
        });
      });
    },

    /** Sign-in options for a staff member's passkeys on this domain, or null when they have none there. */
    async signInOptions(staffId: number, rp: RelyingParty): Promise<PublicKeyCredentialRequestOptionsJSON | null> {
      const keys = await ofStaffOn(staffId, rp.id);
      if (!keys.length) return null;
      return generateAuthenticationOptions({
        rpID: rp.id, userVerification: 'required', timeout: CEREMONY_MS,
        allowCredentials: keys.map((p) => ({ id: p.credentialId, transports: p.transports })),
      });
    },

    /**
     * Checks a sign-in's passkey answer inside `tx`: one of the staff member's passkeys on this domain, signed over the
     * challenge the password step gave, with user verification; its counter moves on (a conditional update, so a
     * replayed or cloned answer loses). False when it does not hold.
     */
    async spendPasskey(tx: Tx, staffId: number, text: unknown, challenge: string, rp: RelyingParty): Promise<boolean> {
      const response = parseCredential(text) as AuthenticationResponseJSON | null;
      if (!response || !challenge) return false;
      const [key] = await tx.select().from(staffPasskeys)
        .where(and(eq(staffPasskeys.credentialId, response.id), eq(staffPasskeys.staffId, staffId), eq(staffPasskeys.rpId, rp.id)));
      if (!key) return false;
      const verification = await verifyAuthenticationResponse({
        response, expectedChallenge: challenge, expectedOrigin: rp.origin, expectedRPID: rp.id, requireUserVerification: true,
        credential: { id: key.credentialId, publicKey: Buffer.from(key.publicKey, 'base64url'), counter: key.counter, transports: key.transports },
      }).catch(() => null);
      if (!verification?.verified) return false;
      const { newCounter } = verification.authenticationInfo;
      const [used] = await tx.update(staffPasskeys).set({ counter: newCounter, lastUsedAt: clock(), lastChallenge: challenge })
        // Authenticators without a counter send 0 every time; one with a counter must move it forward. Either way an
        // answer to a challenge already answered opens nothing.
        .where(and(
          eq(staffPasskeys.id, key.id), eq(staffPasskeys.counter, key.counter), or(eq(staffPasskeys.counter, 0), lt(staffPasskeys.counter, newCounter)),
          or(isNull(staffPasskeys.lastChallenge), ne(staffPasskeys.lastChallenge, challenge)),
        ))
        .returning({ id: staffPasskeys.id });
      return Boolean(used);
    },
  };
}
