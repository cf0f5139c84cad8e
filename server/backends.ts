/**
 * Which parts a server runs on, chosen in one place from its settings, and connected: Redis (one Redis or a
 * Redis Cluster: the Redis storage adapter, storage/redis-storage.ts, and the Redis bus, fanout/redis-bus.ts;
 * many instances) when a Redis URL is set, else the embedded SQLite database in `dataDir` (every port in one
 * file, storage/sqlite-store.ts; data of the older file stores and shot-clock files there is imported once,
 * storage/file-import.ts) with the local bus (one instance). `startServer` opens them and wires a server from
 * them (`createServer`, server/app.ts); server/main.ts reads the settings from the environment.
 * `memoryBackends` are the in-memory parts (tests, benchmarks).
 */
import { join, resolve } from 'node:path';
import { pino, type Logger } from 'pino';
import { createServer, type Limits, type RunningServer, type ServerParts } from './app';
import type { Stores } from './services';
import { systemClock, type Clock } from './clock';
import { localBus, type Bus } from './fanout/bus';
import { redisBus, redisClusterBus } from './fanout/redis-bus';
import { replay, view } from '../shared/index';
import { summaryOf } from './matches/service';
import { importClockFiles, importFileStore } from './storage/file-import';
import { DB_FILE, SqliteDb } from './storage/sqlite-store';
import { salvageDatabase } from './storage/sqlite-salvage';
import { SqliteBackups } from './storage/sqlite-backup';
import { StoreHealth } from './storage/store-errors';
import { memoryStorage } from './storage/memory-store';
import { closeRedis, connectRedis, connectRedisCluster, type Redis, type RedisCluster } from './storage/redis';
import { migrateMatchKeys } from './storage/redis-migrate';
import { redisStorage } from './storage/redis-storage';

/** Scheduled backups kept when BACKUP_KEEP is not set. */
export const DEFAULT_BACKUP_KEEP = 24;

/** The parts a server runs on. */
export interface Backends {
  store: Stores;
  bus: Bus;
}

/** Where a server keeps its data: Redis (one or a Cluster) or the embedded SQLite store. */
export interface BackendOptions {
  /** Redis URL; unset (and no redisClusterUrls) = embedded mode (SQLite database `cuecast.db` in dataDir). */
  redisUrl?: string;
  /** Seed nodes of a Redis Cluster (Redis 7+, sharded pub/sub) instead of one Redis; exclusive with redisUrl. */
  redisClusterUrls?: string[];
  /** Prefix of every Redis key and pub/sub channel. Default `cuecast:`. */
  redisPrefix?: string;
  /** Directory of the embedded store's database (and of older file-store data, imported once). Default ./data. */
  dataDir?: string;
  /** Embedded mode: back the database up every this many minutes into `dataDir/backups/` (unset: no scheduled backups). */
  backupEveryMinutes?: number;
  /** Embedded mode: how many of the newest scheduled backups are kept. Default 24. */
  backupKeep?: number;
}

/**
 * Open the stores and the bus `opts` name: Redis (connected, keys of an older layout moved) or the SQLite
 * database (created when new; file-store data and shot-clock files in `dataDir` imported the first time). Both
 * report damage and store refusals to one `StoreHealth` (logged as warnings; `/healthz`).
 * @throws when Redis is configured but not reachable, or the database cannot be opened (nothing stays open).
 */
export async function openBackends(opts: BackendOptions, log: Logger): Promise<Backends> {
  let health = new StoreHealth((what, detail) => log.warn(detail, what));
  if (opts.redisUrl || opts.redisClusterUrls?.length) return openRedis(opts, log, health);
  const dataDir = resolve(opts.dataDir ?? 'data');
  let sqlite = new SqliteDb(dataDir, health);
  try {
    const check = sqlite.check();
    if (check.result === 'damaged') {
      // A damaged page can refuse writes of healthy matches too (a shared b-tree): copy what reads into a new file.
      sqlite.close();
      const salvage = salvageDatabase(dataDir, DB_FILE);
      // The new file's health: what the salvage could not copy (its damaged matches) is reported as the store opens.
      health = new StoreHealth((what, detail) => log.warn(detail, what));
      sqlite = new SqliteDb(dataDir, health);
      const what =
        'the database had damaged pages: every readable row was copied into a new database file and the damaged file kept aside; ' +
        'the matches that lost steps are read-only and answer store-damaged (see /healthz)';
      log.error(
        { problems: check.problems, ...salvage, lost: salvage.lost.slice(0, 50), lostRows: salvage.lost.length },
        `${what}; restore them from a backup`,
      );
    } else if (check.result === 'skipped') log.warn({ ms: check.ms }, 'database over the quick_check size: damaged pages are found on read');
    else log.info({ ms: check.ms }, 'database quick_check ok');
    const imported = importFileStore(dataDir, sqlite, (record, steps, at) => {
      const state = view(replay(record.setup, steps as Parameters<typeof replay>[1], record.rulesVersion));
      return summaryOf(record.id, state, steps.length, at);
    });
    if (imported) log.info(imported, 'imported the file store of DATA_DIR into SQLite (the files are kept)');
    const clocks = importClockFiles(dataDir, sqlite);
    if (clocks) log.info(clocks, 'imported the shot clocks of DATA_DIR/clocks into SQLite (the files are kept)');
  } catch (err) {
    sqlite.close();
    throw err;
  }
  if (opts.backupEveryMinutes) {
    const backups = new SqliteBackups(sqlite.db, {
      dir: join(dataDir, 'backups'),
      everyMs: opts.backupEveryMinutes * 60_000,
      keep: opts.backupKeep ?? DEFAULT_BACKUP_KEEP,
      onBackup: (path) => log.info({ path }, 'database backed up'),
      onError: (err) => log.error({ err: err.message }, 'database backup failed; trying again at the next time'),
    });
    backups.start();
    sqlite.onClose.push(() => backups.stop());
  }
  return { store: { ...sqlite.ports, health }, bus: localBus() };
}

/**
 * Redis mode: the data, pub and sub connections to one Redis (`redisUrl`) or a Redis Cluster
 * (`redisClusterUrls`); on one Redis, the match keys of an earlier version are first moved to the hash-tagged
 * layout (storage/redis-migrate.ts). The stores use the data connection; the bus closes all three.
 * @throws when both URLs are given, or Redis is not reachable or fails during the move (nothing stays open).
 */
async function openRedis(opts: BackendOptions, log: Logger, health: StoreHealth): Promise<Backends> {
  const cluster = (opts.redisClusterUrls?.length ?? 0) > 0;
  if (cluster && opts.redisUrl) throw new Error('Redis mode needs exactly one of REDIS_URL and REDIS_CLUSTER_URLS');
  const prefix = opts.redisPrefix ?? 'cuecast:';
  if (!cluster) {
    const clients: Redis[] = [];
    try {
      for (const name of ['data', 'pub', 'sub']) clients.push(await connectRedis(opts.redisUrl!, log, name));
      const [data, pub, sub] = clients as [Redis, Redis, Redis];
      // Matches stored by a version before the hash-tagged keys: moved once (then one GET per start).
      await migrateMatchKeys(data, prefix, log);
      return { store: { ...redisStorage(data, prefix), health }, bus: redisBus({ pub, sub, all: clients }, prefix) };
    } catch (err) {
      await Promise.all(clients.map(closeRedis));
      throw err;
    }
  }
  const clients: RedisCluster[] = [];
  try {
    const urls = opts.redisClusterUrls!;
    clients.push(await connectRedisCluster(urls, log, 'data'));
    clients.push(await connectRedisCluster(urls, log, 'pub', { pubSubOnly: true }));
    clients.push(await connectRedisCluster(urls, log, 'sub', { pubSubOnly: true }));
    const [data, pub, sub] = clients as [RedisCluster, RedisCluster, RedisCluster];
    return { store: { ...redisStorage(data, prefix), health }, bus: redisClusterBus({ pub, sub, all: clients }, prefix, log) };
  } catch (err) {
    await Promise.all(clients.map(closeRedis));
    throw err;
  }
}

/** In-memory stores and the local bus: one instance, nothing kept after it stops. */
export function memoryBackends(): Backends {
  return { store: memoryStorage(), bus: localBus() };
}

export interface ServerOptions extends BackendOptions {
  /** Time for creation and step times and event timestamps (a test's manual clock). Default the wall clock. */
  clock?: Clock;
  /** TCP port; 0 = a random free port. Default 3000. */
  port?: number;
  /** Interface to listen on. Default 127.0.0.1. */
  host?: string;
  /** When set, `POST /api/matches` needs `Authorization: Bearer <adminToken>`. */
  adminToken?: string;
  /** pino level: fatal, error, warn, info, debug, trace, silent. Default info. */
  logLevel?: string;
  /** Built web pages: one folder or several, searched in order. Default web/dist and overlay/dist of this repository. */
  staticDir?: string | readonly string[];
  /** Allowed cross-origin callers of /api and Socket.IO (see `ServerParts.corsOrigin`); unset = same origin only. */
  corsOrigin?: string | string[];
  /** express 'trust proxy' (see `ServerParts.trustProxy`). Default off. */
  trustProxy?: boolean | number | string;
  limits?: Partial<Limits>;
  /** Use this logger instead of a new pino logger. */
  logger?: Logger;
  /** Retry and timeout settings of the webhooks' deliveries (see `ServerParts.webhooks`). */
  webhooks?: ServerParts['webhooks'];
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
    clock: opts.clock ?? systemClock,
    log,
    adminToken: opts.adminToken,
    staticDir: opts.staticDir,
    corsOrigin: opts.corsOrigin,
    trustProxy: opts.trustProxy,
    limits: opts.limits,
    webhooks: opts.webhooks,
  });
  return server.listen(opts.port ?? 3000, opts.host);
}
