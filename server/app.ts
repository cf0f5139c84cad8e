/**
 * Composition root of the match server: express (REST + pages) and Socket.IO (websocket transport only)
 * on one HTTP server, over either the Redis store + Redis adapter (REDIS_URL set; many instances) or the
 * file store + in-memory adapter (embedded mode; one instance).
 */
import { createServer } from 'node:http';
import { fileURLToPath } from 'node:url';
import { resolve } from 'node:path';
import express from 'express';
import helmet from 'helmet';
import cors from 'cors';
import { pino, type Logger } from 'pino';
import { Server } from 'socket.io';
import type { ClientToServerEvents, ServerToClientEvents } from '../shared/protocol/wire';
import { publishFirstAdapter } from './fanout-adapter';
import { MatchService } from './matches';
import { closeRedis, connectRedis, type Redis } from './redis';
import { RedisStore } from './store/redis-store';
import { FileStore } from './store/file-store';
import type { MatchStore } from './store/types';
import { apiRouter } from './http/api';
import { staticRouter } from './http/static';
import { attachProtocol, matchOfRoom, roomOf, type IoServer, type SocketLimits } from './socket';
import type { Pushes } from './live-cache';
import { releaseUpgradeRequest } from './socket-memory';

/** Limits and hardening knobs; every field has a production default. */
export interface Limits extends SocketLimits {
  /** REST requests per minute per client address (default 600). */
  requestsPerMinute: number;
  /** Largest REST JSON body in bytes (default 16 KiB). */
  bodyLimitBytes: number;
  /** Largest Socket.IO frame in bytes; bigger frames close the connection (default 64 KiB). */
  maxFrameBytes: number;
  /** A loaded match nobody watches and nobody recorded for this long (ms) is dropped from memory (default 30 min). */
  idleMatchMs: number;
}

export const DEFAULT_LIMITS: Limits = {
  messagesPerSecond: 20,
  burst: 60,
  maxSubscriptions: 20,
  requestsPerMinute: 600,
  bodyLimitBytes: 16 * 1024,
  maxFrameBytes: 64 * 1024,
  idleMatchMs: 30 * 60_000,
};

export interface ServerOptions {
  /** TCP port; 0 = a random free port. Default 3000. */
  port?: number;
  /** Interface to listen on. Default 127.0.0.1. */
  host?: string;
  /** Redis URL; unset = embedded mode (file store under dataDir). */
  redisUrl?: string;
  /** Directory of the embedded file store. Default ./data. */
  dataDir?: string;
  /** When set, `POST /api/matches` needs `Authorization: Bearer <adminToken>`. */
  adminToken?: string;
  /** pino level: fatal, error, warn, info, debug, trace, silent. Default info. */
  logLevel?: string;
  /** Built web pages. Default overlay/dist of this repository. */
  staticDir?: string;
  /** Allowed cross-origin callers of /api and Socket.IO (CORS); unset = same origin only. */
  corsOrigin?: string | string[];
  /**
   * express 'trust proxy' for a server behind a load balancer: the client address (REST rate limit) comes
   * from X-Forwarded-For and the URLs it returns use X-Forwarded-Proto. true, a hop count, or addresses /
   * subnets ('loopback, 10.0.0.0/8'). Default off (direct exposure).
   */
  trustProxy?: boolean | number | string;
  /** Prefix of every Redis key and pub/sub channel. Default `cuecast:`. */
  redisPrefix?: string;
  limits?: Partial<Limits>;
  /** Use this logger instead of a new pino logger. */
  logger?: Logger;
}

export interface RunningServer {
  /** Base URL, e.g. http://127.0.0.1:3000 */
  url: string;
  port: number;
  /** Stop accepting, let in-flight records finish and ack, disconnect clients, close the store and Redis. */
  close(): Promise<void>;
}

const REPO_ROOT = fileURLToPath(new URL('..', import.meta.url));

/**
 * Start a match server.
 * @throws when Redis is configured but not reachable, or the port is taken.
 */
export async function startServer(opts: ServerOptions = {}): Promise<RunningServer> {
  const log = opts.logger ?? pino({ level: opts.logLevel ?? 'info', base: { svc: 'cuecast' } });
  const limits: Limits = { ...DEFAULT_LIMITS, ...opts.limits };
  const prefix = opts.redisPrefix ?? 'cuecast:';
  const redisClients: Redis[] = [];
  let store: MatchStore;
  let sub: Redis | undefined;
  let pub: Redis | undefined;
  try {
    if (opts.redisUrl) {
      const data = await connectRedis(opts.redisUrl, log, 'data');
      redisClients.push(data);
      pub = await connectRedis(opts.redisUrl, log, 'pub');
      redisClients.push(pub);
      sub = await connectRedis(opts.redisUrl, log, 'sub');
      redisClients.push(sub);
      store = new RedisStore(data, prefix);
    } else {
      const fileStore = new FileStore(resolve(opts.dataDir ?? 'data'));
      await fileStore.init();
      store = fileStore;
    }
  } catch (err) {
    await Promise.all(redisClients.map(closeRedis));
    throw err;
  }

  const app = express();
  const httpServer = createServer(app);
  const corsOrigin = opts.corsOrigin;
  const io: IoServer = new Server<ClientToServerEvents, ServerToClientEvents>(httpServer, {
    transports: ['websocket'],
    serveClient: false,
    maxHttpBufferSize: limits.maxFrameBytes,
    ...(corsOrigin ? { cors: { origin: corsOrigin } } : {}),
  });
  io.engine.on('connection', releaseUpgradeRequest);
  if (pub && sub) io.adapter(publishFirstAdapter(pub, sub, `${prefix}socket.io`) as never);

  const matches = new MatchService({
    store,
    log,
    shared: store.kind === 'redis',
    onAppended: (pushes) => emitPushes(pushes, false),
  });
  /** Send a version's pushes to the match's two rooms (on every instance, or with `local` on this one only). */
  function emitPushes({ full, scorebug }: Pushes, local: boolean): void {
    const to = local ? io.local : io;
    to.to(roomOf(full.matchId, 'full')).emit('state', full);
    to.to(roomOf(full.matchId, 'scorebug')).emit('state', scorebug);
  }

  app.disable('x-powered-by');
  if (opts.trustProxy !== undefined && opts.trustProxy !== false) app.set('trust proxy', opts.trustProxy);
  app.use(
    helmet({
      contentSecurityPolicy: {
        directives: {
          'connect-src': ["'self'", 'ws:', 'wss:'],
          // Pages are often opened over plain http on a LAN (tablet at the table, OBS): never upgrade.
          'upgrade-insecure-requests': null,
        },
      },
      strictTransportSecurity: false,
    }),
  );
  app.get('/healthz', (_req, res) => {
    const redisOk = redisClients.every((c) => c.isReady);
    res.status(redisOk ? 200 : 503).json({ ok: redisOk, store: store.kind });
  });
  if (corsOrigin) app.use('/api', cors({ origin: corsOrigin }));
  app.use('/api', apiRouter({ matches, log, adminToken: opts.adminToken, requestsPerMinute: limits.requestsPerMinute, bodyLimitBytes: limits.bodyLimitBytes }));
  app.use(staticRouter(opts.staticDir ?? resolve(REPO_ROOT, 'overlay/dist')));

  attachProtocol(io, matches, log, limits);

  // Pub/sub drops what is published while Redis is away: after a reconnection, re-read every match this
  // instance has viewers for (the reads pipelined) and push its latest version to them, one push per match
  // per viewer (clients drop versions they already have; one that missed several re-subscribes).
  const viewedMatches = () => {
    const ids = new Set<string>();
    for (const room of io.of('/').adapter.rooms.keys()) {
      const id = matchOfRoom(room);
      if (id !== null) ids.add(id);
    }
    return ids;
  };
  const isViewed = (id: string) => io.of('/').adapter.rooms.has(roomOf(id, 'full')) || io.of('/').adapter.rooms.has(roomOf(id, 'scorebug'));
  const timers = new Set<NodeJS.Timeout>();
  let closing: Promise<void> | null = null;
  /** Resync the viewed matches; `pushed` holds the version each match was last resynced at (pushed again only when newer). */
  const resyncViewers = async (attempt: number, pushed: Map<string, number>): Promise<void> => {
    if (closing) return;
    try {
      const all = await matches.resync(viewedMatches());
      const fresh = all.filter((p) => (pushed.get(p.full.matchId) ?? -1) < p.full.version);
      for (const p of fresh) {
        emitPushes(p, true);
        pushed.set(p.full.matchId, p.full.version);
      }
      log.info({ matches: all.length, pushed: fresh.length }, 'resynced viewers after redis reconnection');
    } catch (err) {
      if (attempt < 20) later(() => resyncViewers(attempt + 1, pushed), 500);
      else log.error({ err: (err as Error).message }, 'resync after redis reconnection failed');
    }
  };
  const later = (f: () => unknown, ms: number) => {
    const t = setTimeout(() => {
      timers.delete(t);
      void f();
    }, ms);
    timers.add(t);
  };
  if (sub) {
    sub.on('ready', () => {
      // Once right away, once after the re-subscription and the other instances' queued publishes settled
      // (that second pass pushes only the matches that moved on since the first).
      const pushed = new Map<string, number>();
      void resyncViewers(0, pushed).then(() => later(() => resyncViewers(0, pushed), 1000));
    });
  }

  const sweeper = setInterval(() => matches.evictIdle(limits.idleMatchMs, isViewed), Math.min(60_000, limits.idleMatchMs));
  sweeper.unref();

  await new Promise<void>((ok, fail) => {
    httpServer.once('error', fail);
    httpServer.listen(opts.port ?? 3000, opts.host ?? '127.0.0.1', () => {
      httpServer.off('error', fail);
      ok();
    });
  });
  const address = httpServer.address();
  const port = typeof address === 'object' && address ? address.port : (opts.port ?? 3000);
  const host = opts.host && opts.host !== '0.0.0.0' && opts.host !== '::' ? opts.host : '127.0.0.1';
  const url = `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
  log.info({ url, store: store.kind }, 'cuecast server listening');

  const close = async () => {
    clearInterval(sweeper);
    for (const t of timers) clearTimeout(t);
    // Stop accepting, let in-flight records finish (their acks still go out), then disconnect everyone.
    httpServer.close();
    await matches.drain();
    await io.close();
    httpServer.closeAllConnections();
    await matches.drain();
    await store.close();
    await Promise.all(redisClients.map(closeRedis));
    log.info('cuecast server stopped');
  };
  return {
    url,
    port,
    close: () => (closing ??= close()),
  };
}
