import { and, asc, eq, inArray, isNull, lt, lte, not, or, sql, type SQL } from 'drizzle-orm';
import type { Db, Tx } from '../db/client.ts';
import { outbox } from '../db/schema.ts';
import type { Clock } from './clock.ts';
import type { Logger } from './logger.ts';
import type { OutgoingMail } from './mail/transport.ts';
import { OUTBOX_CHANNEL } from './outbox-listener.ts';
import { isUnavailableError } from './unavailable.ts';

/**
 * Part of the outbox inserts of a process that does not drain (a web instance, a command-line tool): each inserted
 * row notifies the outbox channel, which PostgreSQL delivers at commit (once per transaction; a rolled-back insert
 * notifies nobody), so the workers wake without polling (outbox-listener.ts). A process that drains wakes its own
 * drain instead (RECORDED_WAKE_MS): a notifying commit holds a lock of the whole database until its WAL is flushed,
 * so every sender's commit would wait for every other's (a quarter of paid sends' throughput).
 */
const NOTIFY = sql.raw(`pg_notify('${OUTBOX_CHANNEL}', '')`);
/**
 * A process that drains runs a drain at the emit after the commit that wrote rows, and at the latest this long after
 * they were written (a change whose event has no live listeners is not emitted).
 */
const RECORDED_WAKE_MS = 500;

/** What happened, for whoever wants to react (notification mails, push, live updates). */
export interface AppEvents {
  'message.sent': { messageId: number; conversationId: number; senderId: number; recipientId: number; kind?: 'text' | 'gift' | 'photo'; text: string };
  'like.created': { likerId: number; likedId: number; match: boolean };
  /** A new account (sign-up); its activation mail goes out in reaction. */
  'account.created': { userId: number };
  /** A member opened a conversation and saw the other member's messages (both show read receipts). */
  'messages.read': { readerId: number; otherId: number; conversationId: number };
  /** A balance or premium state changed outside a message (a purchase was booked). */
  'credits.changed': { userId: number };
  /** A session ended by log-out (sessionId is the stored, hashed id): its live sockets close. */
  'session.ended': { userId: number; sessionId: string };
  /** A notice of illegal or unacceptable content came in (DSA Art. 16): its reference goes to the reporter. */
  'notice.received': { noticeId: number };
  /** The operator decided a notice: the reporter is told the outcome. */
  'notice.decided': { noticeId: number };
  /** A moderator checked a member's profile photo: it stays visible (approved) or was removed (rejected). */
  'photo.reviewed': { userId: number; photoId: number; approved: boolean };
  /** A decision restricted a member: its statement of reasons goes to them (DSA Art. 17). */
  'statement.issued': { decisionId: number };
  /** A staff member decided a member's appeal: the outcome goes to them. */
  'appeal.decided': { appealId: number };
  /** A rendered mail the mail server did not take (it was away): it waits in the outbox until it does. */
  'mail.queued': OutgoingMail;
  /** A signed-in member opened another member's profile (live only: a visit mail lost in a crash harms nobody). */
  'profile.visited': { visitorId: number; visitedId: number };
}

export type EventName = keyof AppEvents;
type Handler<K extends EventName> = (payload: AppEvents[K]) => Promise<void> | void;

/** A worker holds a claimed row this long; a crashed worker's rows are taken over after it. */
export const OUTBOX_LEASE_MS = 60_000;
/** Attempts before a row is given up (marked dead, kept for the operator). */
export const OUTBOX_MAX_ATTEMPTS = 8;
const BATCH = 20;
/** Retry n waits 2^n seconds, at most an hour. */
const backoffMs = (attempt: number) => Math.min(3_600_000, 1000 * 2 ** attempt);
/** While the service a subscriber needs is away, its rows are tried again at least this often. */
const OUTAGE_RETRY_MAX_MS = 5 * 60_000;

/**
 * Domain events, two ways:
 * - **Durable** subscribers (mail, push) get an outbox row per event, written with `record(tx, …)` in
 *   the transaction of the change. A drain claims due rows (`FOR UPDATE SKIP LOCKED`, with a lease),
 *   runs the subscriber, and deletes the row; a failure backs off and retries; a crash leaves the row
 *   to be taken over when its lease ends. Many instances drain one table: each row is run by one.
 * - **Live** listeners (`on`) run in this process after commit (`emit`): open tabs, which a missed
 *   event does not harm (they refetch after a reconnect), and the profile-visit mail, which is not worth
 *   an outbox row on every profile view.
 * Every subscriber is registered in server/subscribers.ts.
 */
export function createEventBus(deps: { db: Db; clock: Clock; logger: Pick<Logger, 'error'> }) {
  const { db, clock, logger } = deps;
  const listeners = new Map<EventName, Handler<never>[]>();
  const durable = new Map<EventName, Map<string, Handler<never>>>();
  const pending = new Set<Promise<void>>();
  let draining: Promise<number> | null = null;
  /** Whether drain() was called again while a drain ran. */
  let drainAgain = false;
  let wakeTimer: NodeJS.Timeout | undefined;
  let recordedTimer: NodeJS.Timeout | undefined;
  /** Rows written in a transaction of this process: its drain runs within RECORDED_WAKE_MS whether or not an emit follows. */
  function recorded() {
    if (recordedTimer) return;
    recordedTimer = setTimeout(() => {
      recordedTimer = undefined;
      bus.wake();
    }, RECORDED_WAKE_MS);
    recordedTimer.unref?.();
  }
  let running = false;
  let observe: ((subscriber: string, ok: boolean) => void) | undefined;

  function track(work: Promise<void>) {
    pending.add(work);
    void work.finally(() => pending.delete(work));
  }

  /** Claims due rows for this worker (one short transaction) and runs them. Returns how many ran. */
  async function drainOnce(): Promise<number> {
    // Only rows this process can run: during a rolling update, an older instance leaves a newer
    // subscriber's rows to the instances that have it.
    const known = [...new Set([...durable.values()].flatMap((subs) => [...subs.keys()]))];
    if (!known.length) return 0;
    const now = clock();
    const claimed = await db.transaction(async (tx) => {
      const due = await tx.select({ id: outbox.id }).from(outbox)
        .where(and(not(outbox.dead), inArray(outbox.subscriber, known), lte(outbox.availableAt, now), or(isNull(outbox.lockedUntil), lt(outbox.lockedUntil, now))))
        .orderBy(asc(outbox.availableAt), asc(outbox.id)).limit(BATCH).for('update', { skipLocked: true });
      if (!due.length) return [];
      return tx.update(outbox)
        .set({ lockedUntil: new Date(now.getTime() + OUTBOX_LEASE_MS), attempts: sql`${outbox.attempts} + 1` })
        .where(inArray(outbox.id, due.map((r) => r.id))).returning();
    });
    // Delivered rows go in one statement per batch; until then their lease keeps other workers off them.
    const delivered: number[] = [];
    try {
      await runClaimed(claimed, delivered);
    } finally {
      if (delivered.length) await db.delete(outbox).where(inArray(outbox.id, delivered));
    }
    return claimed.length;
  }

  async function runClaimed(claimed: (typeof outbox.$inferSelect)[], delivered: number[]) {
    for (const row of claimed) {
      const handler = durable.get(row.event as EventName)?.get(row.subscriber);
      try {
        if (!handler) throw new Error(`no subscriber ${row.subscriber} for ${row.event}`);
        await (handler as Handler<EventName>)(row.payload as AppEvents[EventName]);
        delivered.push(row.id);
        observe?.(row.subscriber, true);
      } catch (error) {
        observe?.(row.subscriber, false);
        // A service that is away (the mail server, the database) is not the row's fault: it waits however long the
        // outage lasts, tried again at most every few minutes, and goes out soon after the service returns.
        const away = isUnavailableError(error);
        const dead = row.attempts >= OUTBOX_MAX_ATTEMPTS && !away;
        logger.error(`event ${row.event} → ${row.subscriber} failed (attempt ${row.attempts}${dead ? ', given up' : ''}):`, error);
        await db.update(outbox).set({
          lockedUntil: null, dead, lastError: String(error instanceof Error ? error.message : error).slice(0, 500),
          availableAt: new Date(clock().getTime() + (away ? Math.min(OUTAGE_RETRY_MAX_MS, backoffMs(row.attempts)) : backoffMs(row.attempts))),
        }).where(eq(outbox.id, row.id)).catch((e: unknown) => logger.error('outbox: recording a failure failed:', e));
      }
    }
  }

  /**
   * Drains until nothing is due; concurrent callers share one drain. A caller that arrives while a drain runs may have
   * committed rows that drain's last look missed: it asks for one more pass, so the shared drain ends only after a look
   * that began after every caller's call.
   */
  function drain(): Promise<number> {
    if (draining) {
      drainAgain = true;
      return draining;
    }
    draining = (async () => {
      let total = 0;
      try {
        do {
          drainAgain = false;
          for (let n = await drainOnce(); n > 0; n = await drainOnce()) total += n;
        } while (drainAgain);
      } finally {
        draining = null;
      }
      return total;
    })();
    return draining;
  }

  const bus = {
    /** A live listener: runs in this process after commit; a failure is logged and never fails the request. */
    on<K extends EventName>(event: K, handler: Handler<K>) {
      listeners.set(event, [...(listeners.get(event) ?? []), handler as Handler<never>]);
    },

    /** A durable subscriber, by a name that stays the same across releases (it is stored with each row). */
    durable<K extends EventName>(event: K, subscriber: string, handler: Handler<K>) {
      const subs = durable.get(event) ?? new Map<string, Handler<never>>();
      if (subs.has(subscriber)) throw new Error(`subscriber ${subscriber} of ${event} registered twice`);
      subs.set(subscriber, handler as Handler<never>);
      durable.set(event, subs);
    },

    /** Writes the event's outbox rows in the caller's transaction: they commit, or vanish, with the change. */
    async record<K extends EventName>(tx: Tx | Db, event: K, payload: AppEvents[K]): Promise<void> {
      const subs = [...(durable.get(event)?.keys() ?? [])];
      if (!subs.length) return;
      const now = clock();
      const insert = tx.insert(outbox).values(subs.map((subscriber) => ({ event, subscriber, payload, availableAt: now, createdAt: now })));
      if (running) {
        await insert;
        recorded();
      } else {
        await insert.returning({ notified: NOTIFY });
      }
    },

    /**
     * `record` as a part of a combined statement: the outbox insert for a payload (a jsonb expression)
     * that comes from rows written in the same statement (`from`, e.g. a data-modifying CTE), so the
     * event costs no round trip of its own. Null when nobody subscribes durably.
     */
    recordSql<K extends EventName>(event: K, payload: SQL, from: SQL): SQL | null {
      const subs = [...(durable.get(event)?.keys() ?? [])];
      if (!subs.length) return null;
      const now = clock();
      const names = sql.join(subs.map((s) => sql`(${s}::text)`), sql`, `);
      if (running) recorded();
      return sql`insert into ${outbox} (event, subscriber, payload, available_at, created_at)
        select ${event}::text, s.name, ${payload}, ${now}::timestamptz, ${now}::timestamptz from ${from}, (values ${names}) as s(name)
        ${running ? sql`` : sql`returning ${NOTIFY}`}`;
    },

    /** After commit: live listeners run, and the drain is asked to deliver what was recorded. */
    emit<K extends EventName>(event: K, payload: AppEvents[K]) {
      for (const handler of listeners.get(event) ?? []) {
        track((async () => {
          try {
            await (handler as Handler<K>)(payload);
          } catch (error) {
            logger.error(`event ${event} listener failed:`, error);
          }
        })());
      }
      if (durable.has(event) && running) bus.wake();
    },

    /** Runs a drain soon (coalesced). */
    wake() {
      if (wakeTimer || !running) return;
      wakeTimer = setTimeout(() => {
        wakeTimer = undefined;
        track(drain().then(() => undefined, (error: unknown) => logger.error('outbox drain failed:', error)));
      }, 0);
      wakeTimer.unref?.();
    },

    drain,

    /** Told of every outbox row this process runs (metrics). */
    onDelivery(observer: (subscriber: string, ok: boolean) => void) {
      observe = observer;
    },

    /**
     * Keeps draining: at once after each emit and each wake (a notification from another instance's commit), and every
     * `pollMs` for retries and for rows whose notification was missed.
     */
    start(pollMs = 1_000) {
      running = true;
      const timer = setInterval(() => bus.wake(), pollMs);
      timer.unref();
      bus.wake();
      return () => {
        running = false;
        clearInterval(timer);
        clearTimeout(wakeTimer);
        clearTimeout(recordedTimer);
        wakeTimer = undefined;
        recordedTimer = undefined;
      };
    },

    /** Waits for live listeners and delivers every due outbox row (tests; also what the drain loop does). */
    async settle() {
      for (;;) {
        while (pending.size) await Promise.all([...pending]);
        if ((await drain()) === 0 && !pending.size) return;
      }
    },

    /** Work still running in this process: live listeners and a drain. */
    get pending() {
      return pending.size;
    },

    /**
     * Shutdown: no more timed drains; what is running finishes and what is due is delivered, for at
     * most `timeoutMs`. Resolves with whether everything was done in time. Rows left over stay in the
     * outbox for another instance or the next start.
     */
    async drainForShutdown(timeoutMs: number, options: { deliver: boolean } = { deliver: true }): Promise<boolean> {
      running = false;
      clearTimeout(wakeTimer);
      clearTimeout(recordedTimer);
      wakeTimer = undefined;
      recordedTimer = undefined;
      let timer: NodeJS.Timeout | undefined;
      const timeUp = new Promise<false>((resolve) => { timer = setTimeout(() => resolve(false), timeoutMs); });
      // A web instance delivers nothing from the outbox (its workers do): it only lets its live listeners finish.
      const listenersDone = async () => { while (pending.size) await Promise.all([...pending]); };
      try {
        return await Promise.race([(options.deliver ? bus.settle() : listenersDone()).then(() => true), timeUp]);
      } finally {
        clearTimeout(timer);
      }
    },
  };
  return bus;
}

export type EventBus = ReturnType<typeof createEventBus>;
