/**
 * What the live channel (`/api/live`, a WebSocket) tells a member's open tabs. Each event only says
 * what changed; the tab refetches what it shows, so an event never carries more than its recipient
 * may see, and a missed event is made good by the refetch after a reconnect.
 */
export type LiveEvent =
  /** A message to this member arrived (from), or this member sent one from another tab (to). */
  | { type: 'message'; conversation_id: number; profile_id: number }
  /** The member `profile_id` is typing in the conversation with this member. */
  | { type: 'typing'; profile_id: number }
  /** The member `profile_id` has read this member's messages. */
  | { type: 'read'; profile_id: number; conversation_id: number }
  /** Someone liked this member; `match` when the like was mutual. */
  | { type: 'like'; profile_id: number; match: boolean }
  /** This member's balance or premium state changed (a purchase, a paid message). */
  | { type: 'credits' }
  /** The session behind a socket ended (log-out): that tab's socket closes. Never sent to the browser. */
  | { type: 'session_ended'; session: string }
  /** Sent once when the socket is subscribed: from here on no event is missed. */
  | { type: 'ready' };

/** The path of the live channel. */
export const LIVE_PATH = '/api/live';

/** Close codes the server uses (4000–4999 are the application's own). */
export const LIVE_CLOSE = {
  /** No valid session: the tab stops trying until the member signs in again. */
  unauthorized: 4401,
  /** Too many open tabs of one member on one instance. */
  tooMany: 4429,
  /** The server is restarting: reconnect (to another instance). */
  restart: 1012,
} as const;
