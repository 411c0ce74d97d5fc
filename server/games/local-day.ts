/** The wall-clock fields in `timeZone` at `at`, and the zone's offset from UTC then (ms). */
function wallClock(at: Date, timeZone: string) {
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat('en-US', { timeZone, hourCycle: 'h23', year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', second: '2-digit' })
      .formatToParts(at)
      .filter((p) => p.type !== 'literal')
      .map((p) => [p.type, Number(p.value)]),
  ) as Record<'year' | 'month' | 'day' | 'hour' | 'minute' | 'second', number>;
  // The zone's offset at this instant: local wall time read as UTC, minus the real instant.
  const wallAsUtc = Date.UTC(parts.year, parts.month - 1, parts.day, parts.hour, parts.minute, parts.second);
  return { ...parts, offset: wallAsUtc - Math.floor(at.getTime() / 1000) * 1000 };
}

/** The instant local midnight began in `timeZone` on the day that contains `at`. */
export function startOfLocalDay(at: Date, timeZone: string): Date {
  const wall = wallClock(at, timeZone);
  return new Date(Date.UTC(wall.year, wall.month - 1, wall.day) - wall.offset);
}

/** The local day around `at`: [start, end), 23 to 25 hours long around clock changes. */
export function localDay(at: Date, timeZone: string): { start: Date; end: Date } {
  const start = startOfLocalDay(at, timeZone);
  // Well into the next day, whatever the clock change, then back to its midnight.
  const end = startOfLocalDay(new Date(start.getTime() + 30 * 3_600_000), timeZone);
  return { start, end };
}

/** The local calendar month around `at`: [start, end), from local midnight on the 1st. */
export function localMonth(at: Date, timeZone: string): { start: Date; end: Date } {
  const wall = wallClock(at, timeZone);
  // Local noon on the 1st (a clock change moves the offset by an hour or two, never off that day).
  const start = startOfLocalDay(new Date(Date.UTC(wall.year, wall.month - 1, 1, 12) - wall.offset), timeZone);
  const end = startOfLocalDay(new Date(Date.UTC(wall.year, wall.month, 1, 12) - wall.offset), timeZone);
  return { start, end };
}
