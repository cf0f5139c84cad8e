/**
 * Process entry: configuration from the environment, then `startServer` (server/backends.ts).
 * PORT (3000), HOST (0.0.0.0), REDIS_URL (unset = the embedded SQLite store in DATA_DIR), REDIS_CLUSTER_URLS (comma-separated
 * seed nodes of a Redis Cluster, instead of REDIS_URL), DATA_DIR (./data), ADMIN_TOKEN (optional),
 * LOG_LEVEL (info), CORS_ORIGIN (comma-separated origins or `*`; unset = same origin),
 * REDIS_PREFIX (prefix of Redis keys and channels; default `cuecast:`), BACKUP_EVERY_MINUTES (embedded mode: back the
 * database up into DATA_DIR/backups every N minutes; unset = no scheduled backups), BACKUP_KEEP (24 newest kept), TRUST_PROXY (behind a load balancer:
 * `true`, a hop count, or trusted addresses/subnets — client address from X-Forwarded-For; default off),
 * MAX_SOCKETS_PER_ADDRESS (200), MAX_CONNECTIONS_PER_ADDRESS (256, TCP connections incl. websockets), MAX_SOCKETS (20000), MATCHES_PER_HOUR (100), REPLY_BUFFER_BYTES (524288), MAX_BUFFERED_BYTES (4194304),
 * REPLY_BURST_BYTES (1048576), REPLY_BYTES_PER_SECOND (262144): see docs/operators.md "Configuration".
 * SIGTERM / SIGINT shut down gracefully: stop accepting, finish in-flight records, close the clients' connections
 * (destroyed after 3 s if they do not answer), close the store and Redis, flush the log, exit 0.
 */
import { pino } from 'pino';
import { DEFAULT_LIMITS } from './app';
import { startServer } from './backends';

const env = process.env;
const log = pino({ level: env.LOG_LEVEL || 'info', base: { svc: 'cuecast' } });

function portOf(v: string | undefined): number {
  if (v === undefined || v === '') return 3000;
  const n = Number(v);
  if (!Number.isInteger(n) || n < 0 || n > 65535) {
    log.fatal(`PORT must be an integer 0-65535, got "${v}"`);
    process.exit(2);
  }
  return n;
}

/** A positive integer setting, or its default when unset; exits with a message naming the variable otherwise. */
function countOf(name: string, fallback: number): number {
  const v = env[name];
  if (v === undefined || v === '') return fallback;
  const n = Number(v);
  if (!Number.isInteger(n) || n < 1) {
    log.fatal(`${name} must be a positive integer, got "${v}"`);
    process.exit(2);
  }
  return n;
}

/** TRUST_PROXY: unset/false → off, true, a hop count, else a list of trusted addresses / subnets. */
function trustProxyOf(v: string | undefined): boolean | number | string | undefined {
  if (v === undefined || v === '' || v === 'false') return undefined;
  if (v === 'true') return true;
  return /^\d+$/.test(v) ? Number(v) : v;
}

/** A positive integer setting, or undefined when unset; exits with a message naming the variable otherwise. */
function optionalCountOf(name: string): number | undefined {
  return env[name] === undefined || env[name] === '' ? undefined : countOf(name, 0);
}

const listOf = (v: string | undefined) =>
  v
    ? v
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean)
    : undefined;
const corsOrigin = listOf(env.CORS_ORIGIN);
const redisClusterUrls = listOf(env.REDIS_CLUSTER_URLS);
if (env.REDIS_URL && redisClusterUrls) {
  log.fatal('set REDIS_URL (one Redis) or REDIS_CLUSTER_URLS (a Redis Cluster), not both');
  process.exit(2);
}
const limits = {
  socketsPerAddress: countOf('MAX_SOCKETS_PER_ADDRESS', DEFAULT_LIMITS.socketsPerAddress),
  maxSockets: countOf('MAX_SOCKETS', DEFAULT_LIMITS.maxSockets),
  connectionsPerAddress: countOf('MAX_CONNECTIONS_PER_ADDRESS', DEFAULT_LIMITS.connectionsPerAddress),
  matchesPerHour: countOf('MATCHES_PER_HOUR', DEFAULT_LIMITS.matchesPerHour),
  replyBufferBytes: countOf('REPLY_BUFFER_BYTES', DEFAULT_LIMITS.replyBufferBytes),
  maxBufferedBytes: countOf('MAX_BUFFERED_BYTES', DEFAULT_LIMITS.maxBufferedBytes),
  replyBurstBytes: countOf('REPLY_BURST_BYTES', DEFAULT_LIMITS.replyBurstBytes),
  replyBytesPerSecond: countOf('REPLY_BYTES_PER_SECOND', DEFAULT_LIMITS.replyBytesPerSecond),
  pingIntervalMs: countOf('SOCKET_PING_INTERVAL_MS', DEFAULT_LIMITS.pingIntervalMs),
  pingTimeoutMs: countOf('SOCKET_PING_TIMEOUT_MS', DEFAULT_LIMITS.pingTimeoutMs),
};

try {
  const server = await startServer({
    port: portOf(env.PORT),
    host: env.HOST || '0.0.0.0',
    redisUrl: env.REDIS_URL || undefined,
    redisClusterUrls,
    dataDir: env.DATA_DIR || undefined,
    backupEveryMinutes: optionalCountOf('BACKUP_EVERY_MINUTES'),
    backupKeep: optionalCountOf('BACKUP_KEEP'),
    adminToken: env.ADMIN_TOKEN || undefined,
    redisPrefix: env.REDIS_PREFIX || undefined,
    trustProxy: trustProxyOf(env.TRUST_PROXY),
    corsOrigin,
    limits,
    logger: log,
  });
  // Under `npm start` (scripts/start.mjs, an IPC channel): say that the server listens, so the launcher URL is
  // printed only when it answers, with the port it really has.
  process.send?.({ listening: server.port });
  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    log.info({ signal }, 'shutting down');
    // Clients get 3 s to close (then their connections are destroyed: createServer's closeTimeoutMs); the
    // store and Redis close right after. Within Docker's default 10 s grace period, a shutdown still not done
    // after 8 s (a hung store) exits 1 rather than being killed.
    const force = setTimeout(() => {
      log.error('shutdown took over 8 s; exiting');
      log.flush();
      process.exit(1);
    }, 8_000);
    force.unref();
    server.close().then(
      () => {
        log.flush();
        process.exit(0);
      },
      (err: Error) => {
        log.error({ err: err.message }, 'shutdown failed');
        log.flush();
        process.exit(1);
      },
    );
  };
  process.on('SIGTERM', () => stop('SIGTERM'));
  process.on('SIGINT', () => stop('SIGINT'));
} catch (err) {
  log.fatal({ err: (err as Error).message }, 'cuecast server could not start');
  process.exit(1);
}

process.on('unhandledRejection', (reason) => {
  log.error({ err: reason instanceof Error ? reason.message : String(reason) }, 'unhandled rejection');
});
