import { randomUUID } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * The development outboxes (mail, SMS) keep one JSON file per message. Names sort by time: time first,
 * then a random part, so two messages in one millisecond never collide.
 */
export function outboxEntryId(date: Date): string {
  return `${date.toISOString().replace(/[-:.]/g, '')}-${randomUUID().slice(0, 8)}`;
}

/** Every entry in an outbox folder, newest first; an outbox that does not exist yet is empty. */
export function listOutboxEntries<T>(dir: string): T[] {
  let names: string[];
  try {
    names = readdirSync(dir).filter((f) => f.endsWith('.json'));
  } catch {
    return [];
  }
  return names.sort().reverse().map((f) => JSON.parse(readFileSync(join(dir, f), 'utf8')) as T);
}
