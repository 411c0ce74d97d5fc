import { randomUUID } from 'node:crypto';
import { and, asc, eq } from 'drizzle-orm';
import { fictionalProfileSchema, sexualityFor, type FictionalProfileFields } from '#common/fictional-profiles.ts';
import { EMAIL_CATEGORIES } from '#common/notifications.ts';
import { requireRole, type Actor } from '../actor.ts';
import type { Db, Tx } from '../db/client.ts';
import { fictionalNotes, photos, profiles, sites, users } from '../db/schema.ts';
import type { Clock } from '../infra/clock.ts';
import { AppError, notFound } from '../infra/errors.ts';
import type { From } from '../moderation/queue-shared.ts';
import type { createPhotosService } from '../photos/photos.service.ts';
import type { AuditLog } from './audit.ts';

/** No password hash verifies against this: a fictional profile cannot sign in. */
const NO_SIGN_IN = '!fictional';

/** A fictional profile as the console's form shows it. */
export interface FictionalProfile {
  id: number;
  site_id: number;
  name: string;
  birth_date: string;
  gender: 'male' | 'female';
  looking_for: 'male' | 'female' | 'both';
  country: string;
  region: string | null;
  hair_color: string | null;
  eye_color: string | null;
  body_type: string | null;
  relationship_status: string | null;
  tattoos: string | null;
  signup_reason: string | null;
  about: string;
  notes: string;
  photos: { id: number; thumb_filename: string; status: string; main: boolean }[];
}

/** The answer "looking for" that a stored sexuality stands for. */
const lookingFor = (gender: 'male' | 'female', sexuality: string | null): FictionalProfile['looking_for'] =>
  sexuality === 'bi' || sexuality === null ? 'both' : sexuality === 'hetero' ? (gender === 'male' ? 'female' : 'male') : gender;

/** The profile columns a form's fields set. */
const profileValues = (f: FictionalProfileFields) => ({
  name: f.name, birthDate: f.birth_date, gender: f.gender, sexuality: sexualityFor(f.gender, f.looking_for), country: f.country, region: f.region,
  hairColor: f.hair_color, eyeColor: f.eye_color, bodyType: f.body_type, relationshipStatus: f.relationship_status, tattoos: f.tattoos,
  signupReason: f.signup_reason, about: f.about,
});

/**
 * Staff (support or admin of the site) create and edit a site's fictional profiles (issue 27): accounts marked
 * fictional that cannot sign in, with photos through the members' photo pipeline and notes only staff read. Each
 * change is audited with what it was before and after.
 */
export function createFictionalProfiles(deps: { db: Db; clock: Clock; audit: AuditLog; photos: Pick<ReturnType<typeof createPhotosService>, 'upload'> }) {
  const { db, clock, audit } = deps;

  const parse = (input: Record<string, unknown>) => {
    const parsed = fictionalProfileSchema(clock()).safeParse(input);
    if (!parsed.success) {
      const details = Object.fromEntries(parsed.error.issues.map((i) => [String(i.path[0]), i.message]));
      throw new AppError(400, 'invalid_input', {}, details);
    }
    return parsed.data;
  };

  async function read(q: Db | Tx, id: number): Promise<FictionalProfile | null> {
    const [row] = await q.select({ p: profiles, siteId: users.siteId, notes: fictionalNotes.notes }).from(profiles)
      .innerJoin(users, eq(users.id, profiles.userId)).leftJoin(fictionalNotes, eq(fictionalNotes.userId, profiles.userId))
      .where(and(eq(profiles.userId, id), eq(profiles.fictional, true)));
    if (!row) return null;
    const { p } = row;
    const shots = await q.select().from(photos).where(eq(photos.userId, id)).orderBy(asc(photos.id));
    return {
      id, site_id: row.siteId, name: p.name, birth_date: p.birthDate, gender: p.gender, looking_for: lookingFor(p.gender, p.sexuality), country: p.country,
      region: p.region, hair_color: p.hairColor, eye_color: p.eyeColor, body_type: p.bodyType, relationship_status: p.relationshipStatus,
      tattoos: p.tattoos, signup_reason: p.signupReason, about: p.about, notes: row.notes ?? '',
      photos: shots.map((s) => ({ id: s.id, thumb_filename: s.thumbFilename, status: s.status, main: s.id === p.mainPhotoId })),
    };
  }

  /** The profile, after checking the staff member works for its site; 404 when it is not a fictional profile. */
  async function owned(actor: Actor, id: number) {
    const found = await read(db, id);
    if (!found) throw notFound();
    return { profile: found, staff: requireRole(actor, 'support', found.site_id) };
  }

  return {
    /** A site's fictional profiles by name. */
    async list(actor: Actor, siteId: number): Promise<{ id: number; name: string; gender: string; birth_date: string; country: string; region: string | null }[]> {
      requireRole(actor, 'support', siteId);
      return db.select({ id: profiles.userId, name: profiles.name, gender: profiles.gender, birth_date: profiles.birthDate, country: profiles.country, region: profiles.region })
        .from(profiles).innerJoin(users, eq(users.id, profiles.userId))
        .where(and(eq(users.siteId, siteId), eq(profiles.fictional, true))).orderBy(asc(profiles.name), asc(profiles.userId));
    },

    profile: async (actor: Actor, id: number): Promise<FictionalProfile> => (await owned(actor, id)).profile,

    /** A new fictional profile of the site: an active account nobody can sign in to, its profile and its notes. */
    async create(actor: Actor, siteId: number, input: Record<string, unknown>, from: From = {}): Promise<{ id: number }> {
      const staff = requireRole(actor, 'support', siteId);
      const fields = parse(input);
      const [site] = await db.select({ id: sites.id }).from(sites).where(eq(sites.id, siteId));
      if (!site) throw notFound();
      const now = clock();
      return db.transaction(async (tx) => {
        const [user] = await tx.insert(users).values({
          siteId, email: `fictional-${randomUUID()}@fictional.invalid`, passwordHash: NO_SIGN_IN, status: 'active', activatedAt: now, signupDate: now,
          // Its messages are answered in the console: no mail goes to the address, which reaches nobody.
          emailOptOut: [...EMAIL_CATEGORIES],
        }).returning({ id: users.id });
        await tx.insert(profiles).values({ userId: user.id, ...profileValues(fields), fictional: true, createdAt: now });
        await tx.insert(fictionalNotes).values({ userId: user.id, notes: fields.notes, updatedAt: now });
        await audit.record(tx, {
          actor: staff, role: 'support', action: 'fictional.create', objectType: 'member', objectId: user.id, memberId: user.id, after: fields, ip: from.ip,
        });
        return { id: user.id };
      });
    },

    /** Changes a fictional profile's fields and notes. */
    async update(actor: Actor, id: number, input: Record<string, unknown>, from: From = {}): Promise<FictionalProfile> {
      const { profile: before, staff } = await owned(actor, id);
      const fields = parse(input);
      const now = clock();
      return db.transaction(async (tx) => {
        await tx.update(profiles).set(profileValues(fields)).where(eq(profiles.userId, id));
        await tx.insert(fictionalNotes).values({ userId: id, notes: fields.notes, updatedAt: now })
          .onConflictDoUpdate({ target: fictionalNotes.userId, set: { notes: fields.notes, updatedAt: now } });
        const { photos: _photos, id: _id, site_id: _site, ...was } = before;
        await audit.record(tx, {
          actor: staff, role: 'support', action: 'fictional.update', objectType: 'member', objectId: id, memberId: id, before: was, after: fields, ip: from.ip,
        });
        return (await read(tx, id))!;
      });
    },

    /** A photo for the profile, checked and processed as a member's upload (the first one becomes the main photo). */
    async addPhoto(actor: Actor, id: number, bytes: Buffer, from: From = {}): Promise<{ id: number }> {
      const { profile, staff } = await owned(actor, id);
      const photo = await deps.photos.upload({ kind: 'member', userId: id, siteId: profile.site_id }, bytes, { isPrivate: false });
      await db.transaction((tx) => audit.record(tx, {
        actor: staff, role: 'support', action: 'fictional.photo', objectType: 'photo', objectId: photo.id, memberId: id, after: { photo_id: photo.id }, ip: from.ip,
      }));
      return { id: photo.id };
    },
  };
}

export type FictionalProfiles = ReturnType<typeof createFictionalProfiles>;
