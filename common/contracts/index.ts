import { accountContracts } from './accounts.ts';
import { chatContracts } from './chat.ts';
import type { Contract } from './contract.ts';
import { gamesContracts } from './games.ts';
import { likesContracts } from './likes.ts';
import { moderationContracts } from './moderation.ts';
import { notificationContracts } from './notifications.ts';
import { paymentContracts } from './payments.ts';
import { photoContracts } from './photos.ts';
import { profileContracts } from './profiles.ts';
import { recordsContracts } from './records.ts';
import { reportsContracts } from './reports.ts';
import { activityContracts } from './push.ts';
import { searchContracts } from './search.ts';
import { settingsContracts } from './settings.ts';
import { supportContracts } from './support.ts';
import { staffContracts } from './staff.ts';

export type { Contract, ResponseSpec } from './contract.ts';
export { isJsonResponse } from './contract.ts';

/** Every endpoint of the JSON API, grouped by area (the OpenAPI tags). */
export const CONTRACT_GROUPS: Record<string, readonly Contract[] | Readonly<Record<string, Contract>>> = {
  accounts: accountContracts,
  profiles: profileContracts,
  search: searchContracts,
  likes: likesContracts,
  chat: chatContracts,
  games: gamesContracts,
  photos: photoContracts,
  payments: paymentContracts,
  records: recordsContracts,
  reports: reportsContracts,
  moderation: moderationContracts,
  notifications: notificationContracts,
  settings: settingsContracts,
  activity: activityContracts,
  support: supportContracts,
  staff: staffContracts,
};

export const CONTRACTS: readonly Contract[] = Object.values(CONTRACT_GROUPS).flatMap((group) => Object.values(group));

const byKey = new Map(CONTRACTS.map((c) => [`${c.method.toUpperCase()} ${c.path}`, c]));

/** The contract of one endpoint, by HTTP method and path (/api/…). */
export function findContract(method: string, path: string): Contract | undefined {
  return byKey.get(`${method.toUpperCase()} ${path}`);
}
