/**
 * Composition root of the match server: express (REST + pages) and Socket.IO (websocket transport only)
 * on one HTTP server, over either Redis (one Redis or a Redis Cluster: Redis store + Redis adapter; many
 * instances; redis-backend.ts) or the SQLite store (storage/sqlite-store.ts: one database file in DATA_DIR) + the
 * in-memory adapter (embedded mode; one instance; data of the older file store is imported once at start).
 * Websocket admission (Origin, connections per address and in total) is connection-limits.ts.
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
import { EventService } from './events/service';
import { MatchService } from './matches/service';
import { connectRedisBackend, type RedisBackend } from './storage/redis-backend';
import type { MatchStore } from './storage/types';
import type { EventStore } from './storage/event-store';
import { SqliteDb } from './storage/sqlite-store';
import { importFileStore } from './storage/file-import';
import { StoreHealth } from './storage/store-errors';
import { replay, view } from '../shared/index';
import { summaryOf } from './matches/service';
import { apiRouter } from './transport/http/api';
import { staticRouter } from './transport/http/static';
import { attachProtocol, matchOfRoom, roomOf, type IoServer, type SocketLimits } from './transport/socket';
import { eventHandlers, eventOfRoom, eventRoom, tableOfRoom, tableRoom } from './transport/socket-events';
import type { Pushes } from './matches/live-cache';
import { releaseUpgradeRequest } from './transport/socket-memory';
import { capConnections, ConnectionGate, OriginPolicy, type ConnectionLimits } from './transport/connection-limits';

/** Limits and hardening knobs; every field has a production default. */
export interface Limits extends SocketLimits, ConnectionLimits {
  /** REST requests per minute per client address (default 600). */
  requestsPerMinute: number;
  /** Matches one client address may create per hour (default 100; refused ones do not count). */
  matchesPerHour: number;
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
  replyBufferBytes: 512 * 1024,
  maxBufferedBytes: 4 * 1024 * 1024,
  requestsPerMinute: 600,
  matchesPerHour: 100,
  socketsPerAddress: 200,
  connectionsPerAddress: 256,
  maxSockets: 20_000,
  bodyLimitBytes: 16 * 1024,
  maxFrameBytes: 64 * 1024,
  idleMatchMs: 30 * 60_000,
};

export interface ServerOptions {
  /** TCP port; 0 = a random free port. Default 3000. */
  port?: number;
  /** Interface to listen on. Default 127.0.0.1. */
  host?: string;
  /** Redis URL; unset (and no redisClusterUrls) = embedded mode (SQLite database `cuecast.db` in dataDir). */
  redisUrl?: string;
  /** Seed nodes of a Redis Cluster (Redis 7+, sharded pub/sub) instead of one Redis; exclusive with redisUrl. */
  redisClusterUrls?: string[];
  /** Directory of the embedded store's database (and of older file-store data, imported once). Default ./data. */
  dataDir?: string;
  /** When set, `POST /api/matches` needs `Authorization: Bearer <adminToken>`. */
  adminToken?: string;
  /** pino level: fatal, error, warn, info, debug, trace, silent. Default info. */
  logLevel?: string;
  /** Built web pages. Default web/dist of this repository. */
  staticDir?: string;
  /**
   * Allowed cross-origin callers of /api and Socket.IO (CORS; origins such as `https://studio.example`, or
   * `*`); unset = same origin only. A websocket handshake from another origin is refused (`origin-not-allowed`).
   */
  corsOrigin?: string | string[];
  /**
   * express 'trust proxy' for a server behind a load balancer: the client address (REST rate limits, websockets
   * per address) comes from X-Forwarded-For and the URLs it returns use X-Forwarded-Proto. true, a hop count, or addresses /
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
  const origins = new OriginPolicy(opts.corsOrigin);
  let store: MatchStore;
  let eventStore: EventStore;
  let backend: RedisBackend | undefined;
  // Damage found and writes the store refused: logged as they happen, reported by /healthz.
  const health = new StoreHealth((what, detail) => log.warn(detail, what));
  if (opts.redisUrl || opts.redisClusterUrls?.length) {
    backend = await connectRedisBackend({ url: opts.redisUrl || undefined, clusterUrls: opts.redisClusterUrls, prefix: opts.redisPrefix ?? 'cuecast:', log });
    store = backend.store;
    eventStore = backend.events;
  } else {
    const dataDir = resolve(opts.dataDir ?? 'data');
    const sqlite = new SqliteDb(dataDir, health);
    try {
      const imported = importFileStore(dataDir, sqlite, (record, steps, at) => {
        const state = view(replay(record.setup, steps as Parameters<typeof replay>[1], record.rulesVersion));
        return summaryOf(record.id, state, steps.length, at);
      });
      if (imported) log.info(imported, 'imported the file store of DATA_DIR into SQLite (the files are kept)');
    } catch (err) {
      sqlite.close();
      throw err;
    }
    store = sqlite.matches;
    eventStore = sqlite.events;
  }

  const app = express();
  const httpServer = createServer(app);
  // Socket.IO's own `cors` option would only cover HTTP long-polling, which is off: the gate checks Origin.
  const io: IoServer = new Server<ClientToServerEvents, ServerToClientEvents>(httpServer, {
    transports: ['websocket'],
    serveClient: false,
    maxHttpBufferSize: limits.maxFrameBytes,
  });
  if (opts.trustProxy === undefined || opts.trustProxy === false) {
    let lastWarned = 0;
    capConnections(httpServer, Math.max(limits.connectionsPerAddress, limits.socketsPerAddress + 56), (address) => {
      if (Date.now() - lastWarned < 10_000) return; // at most one line per 10 s
      lastWarned = Date.now();
      log.warn({ address, limit: limits.connectionsPerAddress }, 'refused connections over the per-address cap');
    });
  }
  const gate = new ConnectionGate(app, limits, origins);
  gate.attach(io);
  io.engine.on('connection', releaseUpgradeRequest);

  const matches = new MatchService({
    store,
    log,
    shared: store.kind === 'redis',
    health,
    onAppended: (pushes) => {
      emitPushes(pushes);
      // The event service (made right below) hears every recorded step: live lines, automatic cards. It
      // needs the state only (a match summary reads the service's whole current statistics, never a delta).
      void events.onMatchStep(pushes.scorebug);
    },
  });
  const events = new EventService({
    store: eventStore,
    matches,
    log,
    shared: eventStore.kind === 'redis',
    pushes: {
      table: (state) => io.to(tableRoom(state.eventId, state.table)).emit('table', state),
      event: (view) => io.to(eventRoom(view.id)).emit('event', view),
      live: (push) => io.to(eventRoom(push.eventId)).emit('eventLive', push),
    },
  });
  /**
   * Send a version's pushes to the match's two rooms: on every instance, or with `only` (a resync) to this
   * instance's viewers in those of the two rooms `only` names.
   */
  function emitPushes({ full, scorebug }: Pushes, only?: ReadonlySet<string>): void {
    for (const [room, push] of [[roomOf(full.matchId, 'full'), full], [roomOf(full.matchId, 'scorebug'), scorebug]] as const) {
      if (!only) io.to(room).emit('state', push);
      else if (only.has(room)) io.local.to(room).emit('state', push);
    }
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
    // 503 while Redis is away or the store refuses writes; damaged rows (served up to their last good step) are listed.
    const redisOk = backend?.healthy() ?? true;
    const ok = redisOk && !health.failing;
    res.status(ok ? 200 : 503).json({ ok, store: store.kind, ...(backend ? { redis: backend.mode } : {}), ...health.detail() });
  });
  if (origins.configured) app.use('/api', cors({ origin: (origin, ok) => ok(null, origins.listed(origin)) }));
  app.use('/api', apiRouter({ matches, events, log, adminToken: opts.adminToken, requestsPerMinute: limits.requestsPerMinute, matchesPerHour: limits.matchesPerHour, bodyLimitBytes: limits.bodyLimitBytes }));
  app.use(staticRouter(opts.staticDir ?? resolve(REPO_ROOT, 'web/dist')));

  const stopSweep = attachProtocol(io, matches, log, limits, eventHandlers(events, limits));

  // Pub/sub drops what is published while Redis is away (and, on a cluster, before a room's subscription is
  // in place): re-read what the rooms concerned show — a match's state (both details), a table's state, an
  // event — with the reads sent together, and push it to this instance's viewers of them, one push per match
  // per viewer (clients drop versions they already have; one that missed several versions re-subscribes).
  const viewedRooms = () => [...io.of('/').adapter.rooms.keys()];
  const isViewed = (id: string) => io.of('/').adapter.rooms.has(roomOf(id, 'full')) || io.of('/').adapter.rooms.has(roomOf(id, 'scorebug'));
  const timers = new Set<NodeJS.Timeout>();
  let closing: Promise<void> | null = null;
  /**
   * Resync the viewers of `rooms()`. `pushed` holds the version each match was last resynced at by the same
   * round (a later pass pushes a match again only when it moved on).
   */
  const resyncViewers = async (rooms: () => string[], why: string, pushed = new Map<string, number>(), attempt = 0): Promise<void> => {
    if (closing) return;
    try {
      const names = new Set(rooms());
      const ids = new Set<string>();
      for (const room of names) {
        const id = matchOfRoom(room);
        if (id !== null) ids.add(id);
      }
      const all = await matches.resync(ids);
      const fresh = all.filter((p) => (pushed.get(p.full.matchId) ?? -1) < p.full.version);
      for (const p of fresh) {
        emitPushes(p, names);
        pushed.set(p.full.matchId, p.full.version);
      }
      const tables = await events.resyncTables([...names].map(tableOfRoom).filter((t) => t !== null));
      for (const t of tables) io.local.to(tableRoom(t.eventId, t.table)).emit('table', t);
      const views = await events.resyncEvents([...names].map(eventOfRoom).filter((e) => e !== null));
      for (const v of views) io.local.to(eventRoom(v.id)).emit('event', v);
      log.debug({ matches: all.length, pushed: fresh.length, tables: tables.length, events: views.length, why }, 'resynced viewers');
    } catch (err) {
      if (attempt < 20) later(() => resyncViewers(rooms, why, pushed, attempt + 1), 500);
      else log.error({ err: (err as Error).message, why }, 'resync of viewers failed');
    }
  };
  const later = (f: () => unknown, ms: number) => {
    const t = setTimeout(() => {
      timers.delete(t);
      void f();
    }, ms);
    timers.add(t);
  };
  if (backend) {
    io.adapter(
      backend.adapter({
        reconnected: () => {
          log.info('resyncing viewers after a redis reconnection');
          // Once right away, once after the re-subscription and the other instances' queued publishes settled
          // (that second pass pushes only the matches that moved on since the first).
          const pushed = new Map<string, number>();
          void resyncViewers(viewedRooms, 'reconnection', pushed);
          later(() => resyncViewers(viewedRooms, 'reconnection', pushed), 1000);
        },
        // A match (either detail), table or event room's first viewer here joined just before its shard channel was subscribed.
        roomSubscribed: (room) => {
          if (io.of('/').adapter.rooms.has(room)) void resyncViewers(() => [room], 'subscribed');
        },
      }) as never,
    );
  }

  const sweeper = setInterval(() => matches.evictIdle(limits.idleMatchMs, isViewed), Math.min(60_000, limits.idleMatchMs));
  sweeper.unref();

  try {
    await new Promise<void>((ok, fail) => {
      httpServer.once('error', fail);
      httpServer.listen(opts.port ?? 3000, opts.host ?? '127.0.0.1', () => {
        httpServer.off('error', fail);
        ok();
      });
    });
  } catch (err) {
    // The port is taken: leave nothing open behind.
    clearInterval(sweeper);
    stopSweep();
    await store.close();
    await eventStore.close();
    await backend?.close();
    throw err;
  }
  const address = httpServer.address();
  const port = typeof address === 'object' && address ? address.port : (opts.port ?? 3000);
  const host = opts.host && opts.host !== '0.0.0.0' && opts.host !== '::' ? opts.host : '127.0.0.1';
  const url = `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
  log.info({ url, store: store.kind }, 'cuecast server listening');

  const close = async () => {
    clearInterval(sweeper);
    stopSweep();
    for (const t of timers) clearTimeout(t);
    // Stop accepting, let in-flight records finish (their acks still go out), then disconnect everyone.
    httpServer.close();
    await matches.drain();
    await events.drain();
    await io.close();
    httpServer.closeAllConnections();
    await matches.drain();
    await events.drain();
    await store.close();
    await eventStore.close();
    await backend?.close();
    log.info('cuecast server stopped');
  };
  return {
    url,
    port,
    close: () => (closing ??= close()),
  };
}
