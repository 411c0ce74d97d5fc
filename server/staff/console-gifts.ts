import { randomBytes } from 'node:crypto';
import { asc, count, eq, inArray } from 'drizzle-orm';
import sharp from 'sharp';
import { giftFormSchema, type GiftForm } from '#common/catalogue.ts';
import { requireStaffRole, requireStaffRoleSomewhere, type Actor } from '../actor.ts';
import type { Db } from '../db/client.ts';
import { gifts, messages } from '../db/schema.ts';
import { AppError, isAppError } from '../infra/errors.ts';
import type { PhotoStorage } from '../infra/storage.ts';
import { processPhoto } from '../photos/photos.service.ts';
import type { AuditLog } from './audit.ts';
import { changes, parseOr400 } from './console-forms.ts';
import type { StaffRequest } from '../support/member-support.ts';

type GiftRow = typeof gifts.$inferSelect;

/** The side of the square a gift's image is kept at (the picker shows it at 56 px, a sent gift at 96 px, both at 2×). */
const GIFT_IMAGE_SIDE = 192;

/**
 * An uploaded image as a gift's: checked by its content and stripped of its metadata exactly as a member photo is
 * (processPhoto: a decodable JPEG, PNG, WebP, HEIF, AVIF or GIF within the size and pixel limits, else 413/415/400),
 * then fitted into a transparent square as WebP.
 */
export async function processGiftImage(input: Buffer): Promise<Buffer> {
  const { original } = await processPhoto(input);
  return sharp(original).resize(GIFT_IMAGE_SIDE, GIFT_IMAGE_SIDE, { fit: 'contain', background: { r: 0, g: 0, b: 0, alpha: 0 } }).webp({ quality: 85 }).toBuffer();
}

/** The form's fields of a stored gift (what the audit row's before and after hold, with the image's file name). */
const formOf = (row: GiftRow): GiftForm & { image: string | null } => ({
  names: row.names as GiftForm['names'], credits: row.credits, sort: row.sort, active: row.active, image: row.image,
});

/**
 * The console's gifts (issue 27, decision 075). The catalogue is shared by every site (the table has no site column,
 * like the credit packages): reading it needs finance (or admin) of some site, changing it finance of every site. A
 * gift made here has its name in every language and an uploaded image, kept in the photo storage (local disk or the
 * bucket) and served from /gift-images/<file>; the built-in gifts keep their translated names and shipped images. Each
 * change writes one audit row with before and after. A gift is never deleted (sent gifts name it): it is retired.
 */
export function createConsoleGifts(deps: { db: Db; audit: AuditLog; storage: PhotoStorage }) {
  const { db, audit, storage } = deps;
  const financeEverywhere = (actor: Actor) => requireStaffRole(actor, 'finance', null);

  async function storeImage(image: Buffer): Promise<string> {
    const name = `gift-${randomBytes(12).toString('hex')}.webp`;
    const processed = await processGiftImage(image).catch((error: unknown) => {
      // The refusal is the image field's: the form shows it there.
      if (isAppError(error)) throw new AppError(error.status, error.code, error.params, { image: `errors.${error.code}` });
      throw error;
    });
    await storage.put(name, processed, 'image/webp');
    return name;
  }

  /** A stored image no gift names (a failed save, a replaced image) goes again; a failure to delete leaves a file, never a broken gift. */
  const dropImage = (name: string | null) => (name ? storage.delete(name).catch(() => undefined) : Promise.resolve());

  async function giftOf(q: Pick<Db, 'select'>, id: number, lock = false): Promise<GiftRow> {
    const query = q.select().from(gifts).where(eq(gifts.id, id));
    const [row] = lock ? await query.for('update') : await query;
    if (!row) throw new AppError(404, 'not_found');
    return row;
  }

  return {
    /** Every gift, in the picker's order, with how often it was sent (finance of some site). */
    async giftList(actor: Actor) {
      requireStaffRoleSomewhere(actor, 'finance');
      const rows = await db.select().from(gifts).orderBy(asc(gifts.sort), asc(gifts.id));
      const ids = rows.map((r) => r.id);
      const sent = ids.length
        ? await db.select({ giftId: messages.giftId, n: count() }).from(messages).where(inArray(messages.giftId, ids)).groupBy(messages.giftId)
        : [];
      return rows.map((r) => ({
        id: r.id, slug: r.slug, names: r.names, image: r.image ? `/gift-images/${r.image}` : `/gifts/${r.slug}.svg`, builtIn: r.image === null,
        credits: r.credits, sort: r.sort, active: r.active, sent: sent.find((s) => s.giftId === r.id)?.n ?? 0,
      }));
    },

    /** What a gift's form starts from (finance of every site, who may change it). */
    async giftEditor(actor: Actor, id: number) {
      financeEverywhere(actor);
      const row = await giftOf(db, id);
      return { ...formOf(row), slug: row.slug, builtIn: row.image === null };
    },

    /** Adds a gift with its image (finance of every site); a gift needs an image. */
    async createGift(actor: Actor, input: unknown, image: Buffer | null, from: StaffRequest = { ip: null }): Promise<{ id: number }> {
      const staff = financeEverywhere(actor);
      const values = parseOr400(giftFormSchema, input);
      if (!image?.length) throw new AppError(400, 'invalid_input', {}, { image: 'errors.photo_missing' });
      const file = await storeImage(image);
      try {
        return await db.transaction(async (tx) => {
          const [row] = await tx.insert(gifts).values({ ...values, slug: file.slice(0, -'.webp'.length), image: file }).returning({ id: gifts.id });
          await audit.record(tx, { actor: staff, role: 'finance', action: 'gift.create', objectType: 'gift', objectId: row!.id, after: { ...values, image: file }, ip: from.ip });
          return { id: row!.id };
        });
      } catch (error) {
        await dropImage(file);
        throw error;
      }
    },

    /**
     * Changes a gift's names, price, place or offer, and its image when a new one is uploaded (finance of every site).
     * Nothing changed writes nothing. A built-in gift keeps its translated name for the languages' own texts and may
     * take an uploaded image instead of its shipped one.
     */
    async updateGift(actor: Actor, id: number, input: unknown, image: Buffer | null, from: StaffRequest = { ip: null }): Promise<{ changed: string[] }> {
      const staff = financeEverywhere(actor);
      const values = parseOr400(giftFormSchema, input);
      await giftOf(db, id);
      const file = image?.length ? await storeImage(image) : null;
      try {
        const result = await db.transaction(async (tx) => {
          const before = formOf(await giftOf(tx, id, true));
          const after = { ...values, image: file ?? before.image };
          const diff = changes(before, after);
          const fields = Object.keys(diff.after);
          if (!fields.length) return { changed: fields, old: null };
          await tx.update(gifts).set(after).where(eq(gifts.id, id));
          await audit.record(tx, { actor: staff, role: 'finance', action: 'gift.update', objectType: 'gift', objectId: id, before: diff.before, after: diff.after, ip: from.ip });
          return { changed: fields, old: file ? before.image : null };
        });
        await dropImage(result.old);
        return { changed: result.changed };
      } catch (error) {
        await dropImage(file);
        throw error;
      }
    },

    /** Takes a gift out of the picker (finance of every site); gifts already sent still show. Audited; twice is once. */
    async retireGift(actor: Actor, id: number, from: StaffRequest = { ip: null }): Promise<{ changed: boolean }> {
      const staff = financeEverywhere(actor);
      return db.transaction(async (tx) => {
        const row = await giftOf(tx, id, true);
        if (!row.active) return { changed: false };
        await tx.update(gifts).set({ active: false }).where(eq(gifts.id, id));
        await audit.record(tx, { actor: staff, role: 'finance', action: 'gift.retire', objectType: 'gift', objectId: id, before: { active: true }, after: { active: false }, ip: from.ip });
        return { changed: true };
      });
    },

  };
}

export type ConsoleGifts = ReturnType<typeof createConsoleGifts>;

/** The images of gifts made in the console, as /gift-images/<file> serves them to everyone. */
export function createGiftImages(deps: { db: Db; storage: PhotoStorage }) {
  return {
    /** Only a file some gift names (never a member's photo, which lives in the same storage). */
    async file(name: string): Promise<Buffer | null> {
      const [row] = await deps.db.select({ id: gifts.id }).from(gifts).where(eq(gifts.image, name));
      return row ? deps.storage.get(name) : null;
    },
  };
}

export type GiftImages = ReturnType<typeof createGiftImages>;
