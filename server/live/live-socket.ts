import type { IncomingMessage, Server } from 'node:http';
import type { Duplex } from 'node:stream';
import { parse as parseCookies } from 'hono/utils/cookie';
import { WebSocketServer, type WebSocket } from 'ws';
import { AUTH_COOKIE } from '#common/constants.ts';
import { LIVE_CLOSE, LIVE_PATH, type LiveEvent } from '#common/live.ts';
import { hashToken } from '../accounts/accounts.service.ts';
import { forwardedProto } from '../http/client-address.ts';
import { addressedOrigin, sameOrigin, sameSiteOrigins } from '../http/origin.ts';
import type { Logger } from '../infra/logger.ts';
import type { Services } from '../use-cases.ts';
import type { Site } from '../settings/settings.service.ts';

export interface LiveChannelOptions {
  /** How often each socket is pinged; a socket that missed the previous pong is dropped. */
  heartbeatMs?: number;
  /** Every this many heartbeats the session behind each socket is checked again (expiry, password change). */
  recheckEvery?: number;
  /** Open tabs of one member on one instance. */
  maxSocketsPerMember?: number;
}

/** How long a tab may take to answer the closing handshake at shutdown. */
const CLOSE_GRACE_MS = 2_000;

const DEFAULTS = { heartbeatMs: 30_000, recheckEvery: 4, maxSocketsPerMember: 12 } as const;

interface Tab {
  ws: WebSocket;
  userId: number;
  /** The site the socket was opened on: its session is checked again there. */
  siteId: number;
  token: string;
  session: string;
  alive: boolean;
  unsubscribe?: () => void;
}

/** Answers an upgrade request that is refused with a plain HTTP status, then drops the connection. */
function refuse(socket: Duplex, status: number, reason: string) {
  if (socket.writable) socket.end(`HTTP/1.1 ${status} ${reason}\r\nConnection: close\r\nContent-Length: 0\r\n\r\n`);
  socket.destroy();
}

/**
 * The live channel: a WebSocket at /api/live for signed-in members. The session cookie authenticates
 * it and the Origin must be the site's own (a WebSocket is not covered by SameSite or CORS). Events
 * addressed to the member reach every open tab through the live bus, on whichever instance it is.
 */
export function attachLiveChannel(deps: {
  server: Server; services: Pick<Services, 'accounts' | 'live' | 'settings'>; logger: Pick<Logger, 'error' | 'info'>;
  /** TRUST_PROXY: how many proxies in front say which scheme the browser used. */
  trustProxy?: number;
  options?: LiveChannelOptions;
}) {
  const { server, services, logger, trustProxy = 0 } = deps;
  const options = { ...DEFAULTS, ...deps.options };
  const wss = new WebSocketServer({ noServer: true, maxPayload: 1024, perMessageDeflate: false });
  const tabs = new Set<Tab>();
  const perMember = new Map<number, number>();
  let beats = 0;
  let closing = false;

  /**
   * The Origin is the site's own, as for any unsafe request to the app (server/http/origin.ts): the origin the tab
   * reached the site on, or the site's canonical origin.
   */
  function fromThisSite(req: IncomingMessage, site: Site): boolean {
    const { host, origin } = req.headers;
    const forwarded = req.headers['x-forwarded-proto'];
    const scheme = (req.socket as { encrypted?: boolean }).encrypted ? 'https' : 'http';
    const secure = forwardedProto(Array.isArray(forwarded) ? forwarded.join(',') : forwarded, scheme, trustProxy) === 'https';
    const addressed = addressedOrigin(host, secure);
    if (addressed && sameOrigin(origin, [addressed])) return true;
    return sameOrigin(origin, sameSiteOrigins(services.settings.origin(site), host, secure));
  }

  async function upgrade(req: IncomingMessage, socket: Duplex, head: Buffer) {
    if (closing) return refuse(socket, 503, 'Service Unavailable');
    const token = parseCookies(req.headers.cookie ?? '', AUTH_COOKIE)[AUTH_COOKIE];
    let userId: number | null;
    let site: Site;
    try {
      // The site of the Host (from the site cache: no query once warm). A session is one only on its own site
      // (decision 051): another site's cookie opens no socket here.
      site = await services.settings.siteForHost(req.headers.host);
      if (!fromThisSite(req, site)) return refuse(socket, 403, 'Forbidden');
      userId = await services.accounts.sessionUserId(token, site.id);
    } catch (error) {
      logger.error('live: checking the origin or the session failed:', error);
      return refuse(socket, 503, 'Service Unavailable');
    }
    if (userId === null || !token) return refuse(socket, 403, 'Forbidden');
    if ((perMember.get(userId) ?? 0) >= options.maxSocketsPerMember) return refuse(socket, 429, 'Too Many Requests');
    const member = userId;
    const siteId = site.id;
    wss.handleUpgrade(req, socket, head, (ws) => void open(ws, member, siteId, token));
  }

  async function open(ws: WebSocket, userId: number, siteId: number, token: string) {
    const tab: Tab = { ws, userId, siteId, token, session: hashToken(token), alive: true };
    tabs.add(tab);
    perMember.set(userId, (perMember.get(userId) ?? 0) + 1);
    ws.on('pong', () => { tab.alive = true; });
    // The channel is one-way: anything a tab sends is ignored (the size limit still applies).
    ws.on('message', () => {});
    ws.on('error', () => ws.terminate());
    ws.on('close', () => {
      tabs.delete(tab);
      const left = (perMember.get(userId) ?? 1) - 1;
      if (left) perMember.set(userId, left);
      else perMember.delete(userId);
      tab.unsubscribe?.();
    });
    try {
      tab.unsubscribe = await services.live.subscribe(userId, (event: LiveEvent) => {
        if (event.type === 'session_ended') {
          if (event.session === tab.session) ws.close(LIVE_CLOSE.unauthorized, 'signed out');
          return;
        }
        if (ws.readyState === ws.OPEN) ws.send(JSON.stringify(event));
      });
    } catch (error) {
      logger.error('live: subscribing failed:', error);
      ws.close(1011, 'unavailable');
      return;
    }
    // Closed while subscribing: nothing will call the close handler again.
    if (ws.readyState === ws.CLOSED || ws.readyState === ws.CLOSING) tab.unsubscribe();
    else ws.send(JSON.stringify({ type: 'ready' }));
  }

  const heartbeat = setInterval(() => {
    const recheck = ++beats % options.recheckEvery === 0;
    for (const tab of tabs) {
      if (!tab.alive) {
        tab.ws.terminate();
        continue;
      }
      tab.alive = false;
      tab.ws.ping();
      if (recheck) {
        services.accounts.sessionUserId(tab.token, tab.siteId).then((userId) => {
          if (userId !== tab.userId) tab.ws.close(LIVE_CLOSE.unauthorized, 'session ended');
        }, () => { /* the next check tries again */ });
      }
    }
  }, options.heartbeatMs);
  heartbeat.unref();

  const onUpgrade = (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    const path = (req.url ?? '').split('?')[0];
    if (path !== LIVE_PATH) return refuse(socket, 404, 'Not Found');
    upgrade(req, socket, head).catch((error: unknown) => {
      logger.error('live: upgrade failed:', error);
      refuse(socket, 500, 'Internal Server Error');
    });
  };
  server.on('upgrade', onUpgrade);

  return {
    /** Open sockets on this instance. */
    get size() {
      return tabs.size;
    },
    /** Shutdown: no new sockets; open ones are told to reconnect (to another instance). */
    async close() {
      closing = true;
      clearInterval(heartbeat);
      server.off('upgrade', onUpgrade);
      const closed = [...tabs].map((tab) => new Promise<void>((resolve) => {
        tab.ws.once('close', () => resolve());
        tab.ws.close(LIVE_CLOSE.restart, 'restarting');
      }));
      // A tab that does not answer the closing handshake in time is cut off.
      const cutOff = setTimeout(() => { for (const tab of tabs) tab.ws.terminate(); }, CLOSE_GRACE_MS);
      await Promise.all(closed);
      clearTimeout(cutOff);
      await new Promise<void>((resolve) => wss.close(() => resolve()));
    },
  };
}

export type LiveChannel = ReturnType<typeof attachLiveChannel>;
