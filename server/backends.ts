/**
 * Which parts a server runs on, chosen in one place from its settings, and connected: Redis (one Redis or a
 * Redis Cluster: the Redis stores and the Redis bus; many instances; storage/redis-backend.ts) when a Redis URL
 * is set, else the embedded file stores under `dataDir` with the local bus (one instance). `startServer` opens
 * them and wires a server from them (`createServer`, server/app.ts); server/main.ts reads the settings from
 * the environment. `memoryBackends` are the in-memory parts (tests, benchmarks).
 */
import { resolve } from 'node:path';
import { pino, type Logger } from 'pino';
import { createServer, type Limits, type RunningServer, type Stores } from './app';
import { systemClock } from './clock';
import { localBus, type Bus } from './fanout/bus';
import { FileEventStore } from './storage/file-event-store';
import { FileStore } from './storage/file-store';
import { MemoryEventStore, MemoryStore } from './storage/memory-store';
import { connectRedisBackend } from './storage/redis-backend';
import { FileShotClockStore, MemoryShotClockStore } from './shot-clock/store';

/** The parts a server runs on. */
export interface Backends {
  store: Stores;
  bus: Bus;
}

/** Where a server keeps its data: Redis (one or a Cluster) or the embedded file stores. */
export interface BackendOptions {
  /** Redis URL; unset (and no redisClusterUrls) = embedded mode (file store under dataDir). */
  redisUrl?: string;
  /** Seed nodes of a Redis Cluster (Redis 7+, sharded pub/sub) instead of one Redis; exclusive with redisUrl. */
  redisClusterUrls?: string[];
  /** Prefix of every Redis key and pub/sub channel. Default `cuecast:`. */
  redisPrefix?: string;
  /** Directory of the embedded file store. Default ./data. */
  dataDir?: string;
}

/**
 * Open the stores and the bus `opts` name: Redis (connected, keys of an older layout moved) or the file stores
 * (directories created).
 * @throws when Redis is configured but not reachable (nothing stays open).
 */
export async function openBackends(opts: BackendOptions, log: Logger): Promise<Backends> {
  if (opts.redisUrl || opts.redisClusterUrls?.length) {
    const redis = await connectRedisBackend({ url: opts.redisUrl || undefined, clusterUrls: opts.redisClusterUrls, prefix: opts.redisPrefix ?? 'cuecast:', log });
    return { store: { matches: redis.store, events: redis.events, shotClocks: redis.shotClocks }, bus: redis };
  }
  const dataDir = resolve(opts.dataDir ?? 'data');
  const matches = new FileStore(dataDir);
  const events = new FileEventStore(dataDir);
  await Promise.all([matches.init(), events.init()]);
  return { store: { matches, events, shotClocks: new FileShotClockStore(dataDir) }, bus: localBus() };
}

/** In-memory stores and the local bus: one instance, nothing kept after it stops. */
export function memoryBackends(): Backends {
  return { store: { matches: new MemoryStore(), events: new MemoryEventStore(), shotClocks: new MemoryShotClockStore() }, bus: localBus() };
}

export interface ServerOptions extends BackendOptions {
  /** TCP port; 0 = a random free port. Default 3000. */
  port?: number;
  /** Interface to listen on. Default 127.0.0.1. */
  host?: string;
  /** When set, `POST /api/matches` needs `Authorization: Bearer <adminToken>`. */
  adminToken?: string;
  /** pino level: fatal, error, warn, info, debug, trace, silent. Default info. */
  logLevel?: string;
  /** Built web pages. Default web/dist of this repository. */
  staticDir?: string;
  /** Allowed cross-origin callers of /api and Socket.IO (see `ServerParts.corsOrigin`); unset = same origin only. */
  corsOrigin?: string | string[];
  /** express 'trust proxy' (see `ServerParts.trustProxy`). Default off. */
  trustProxy?: boolean | number | string;
  limits?: Partial<Limits>;
  /** Use this logger instead of a new pino logger. */
  logger?: Logger;
}

/**
 * Start a match server: open its parts, wire them, listen.
 * @throws when Redis is configured but not reachable, or the port is taken (nothing stays open).
 */
export async function startServer(opts: ServerOptions = {}): Promise<RunningServer> {
  const log = opts.logger ?? pino({ level: opts.logLevel ?? 'info', base: { svc: 'cuecast' } });
  const { store, bus } = await openBackends(opts, log);
  const server = createServer({
    store,
    bus,
    clock: systemClock,
    log,
    adminToken: opts.adminToken,
    staticDir: opts.staticDir,
    corsOrigin: opts.corsOrigin,
    trustProxy: opts.trustProxy,
    limits: opts.limits,
  });
  return server.listen(opts.port ?? 3000, opts.host);
}
