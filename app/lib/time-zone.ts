import { useEffect, useState } from 'react';
import { knownTimeZone, timeZoneCookie } from '#common/time-zone.ts';
import { useRootData } from './root-data.ts';

/**
 * The time zone a member's times are shown in (docs/decisions/079): the device's. The server rendered with the zone
 * the root loader chose (the device's from its cookie, else the country's), and hydration renders the same; after it,
 * the device's zone takes over if it differs, and the cookie tells the server for the next page.
 */
export function useTimeZone(): string {
  const { timeZone } = useRootData();
  const [zone, setZone] = useState(timeZone);
  useEffect(() => {
    const device = knownTimeZone(Intl.DateTimeFormat().resolvedOptions().timeZone);
    if (!device) return;
    if (device !== timeZone) document.cookie = timeZoneCookie(device);
    setZone(device);
  }, [timeZone]);
  return zone;
}
