import { accountContracts } from './accounts.ts';
import { chatContracts } from './chat.ts';
import type { Contract, HttpMethod } from './contract.ts';
import { gamesContracts } from './games.ts';
import { likesContracts } from './likes.ts';
import { notificationContracts } from './notifications.ts';
import { paymentContracts } from './payments.ts';
import { photoContracts } from './photos.ts';
import { profileContracts } from './profiles.ts';
import { recordsContracts } from './records.ts';
import { activityContracts } from './push.ts';
import { searchContracts } from './search.ts';
import { settingsContracts } from './settings.ts';

export type { Contract, HttpMethod, ResponseSpec } from './contract.ts';
export { isJsonResponse } from './contract.ts';

/** Every endpoint of the JSON API, grouped by area (the OpenAPI tags). */
export const CONTRACT_GROUPS: Record<string, readonly Contract[]> = {
  accounts: accountContracts,
  profiles: profileContracts,
  search: searchContracts,
  likes: likesContracts,
  chat: chatContracts,
  games: gamesContracts,
  photos: photoContracts,
  payments: paymentContracts,
  records: recordsContracts,
  notifications: notificationContracts,
  settings: settingsContracts,
  activity: activityContracts,
};

export const CONTRACTS: readonly Contract[] = Object.values(CONTRACT_GROUPS).flat();

const byKey = new Map(CONTRACTS.map((c) => [`${c.method.toUpperCase()} ${c.path}`, c]));

/** The contract of one endpoint, by HTTP method and path (/api/…). */
export function findContract(method: string, path: string): Contract | undefined {
  return byKey.get(`${method.toUpperCase()} ${path}`);
}

export const isHttpMethod = (m: string): m is HttpMethod => ['get', 'post', 'put', 'delete'].includes(m);
