/**
 * `npm run migrate -- --from <DATA_DIR | redis URL> --to <redis URL | DATA_DIR> [--prefix P]`: copy every match,
 * tournament, shot clock and sponsor's logo from one backend to another through the storage ports
 * (server/migrate.ts), check each match on the target by its replay hash, and print what was copied.
 *
 * A location is a Redis URL (`redis://…` or `rediss://…`; several, comma-separated, are the seed nodes of a Redis
 * Cluster) or a directory: the embedded mode's DATA_DIR (its SQLite database `cuecast.db`; older file-store data
 * there is imported first, as the server does at start). Redis keys use the prefix the server uses: `--prefix`,
 * else REDIS_PREFIX, else `cuecast:`; `--from-prefix` / `--to-prefix` set one side's. Stop the servers writing
 * to the source first (a match recorded meanwhile is copied by a second run).
 * Exit code 0 when done (also when there was nothing to copy), 1 when the target holds different data under a
 * source id (nothing copied; each named) or a check failed, 2 for bad arguments.
 */
import { existsSync, readdirSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { pino } from 'pino';
import { openBackends, type Backends, type BackendOptions } from '../server/backends';
import { migrate, MigrationCheckFailed, MigrationConflict } from '../server/migrate';
import { DB_FILE } from '../server/storage/sqlite-store';

/** `n` with the word for one or for several: "1 logo", "3 logos". */
const count = (n: number, one: string, several: string): string => `${n} ${n === 1 ? one : several}`;

const USAGE = 'usage: npm run migrate -- --from <DATA_DIR | redis URL> --to <redis URL | DATA_DIR> [--prefix P] [--from-prefix P] [--to-prefix P]';

/** Where data is: a Redis (one or a Cluster's seeds) with a key prefix, or an embedded DATA_DIR. */
export type Location = { redis: string[]; prefix: string } | { dataDir: string };

/** A location from its command-line text. */
export function locationOf(text: string, prefix: string): Location {
  if (/^rediss?:\/\//.test(text))
    return {
      redis: text
        .split(',')
        .map((u) => u.trim())
        .filter(Boolean),
      prefix,
    };
  return { dataDir: resolve(text) };
}

/** A location as a person reads it. */
export function describe(l: Location): string {
  if ('dataDir' in l) return `embedded store in ${l.dataDir}`;
  const where = l.redis.length > 1 ? `Redis Cluster ${l.redis.join(',')}` : `Redis ${l.redis[0]}`;
  return `${where} (keys ${l.prefix}*)`;
}

/** The backend options that open `l` as the server would. */
function optionsOf(l: Location): BackendOptions {
  if ('dataDir' in l) return { dataDir: l.dataDir };
  return l.redis.length > 1 ? { redisClusterUrls: l.redis, redisPrefix: l.prefix } : { redisUrl: l.redis[0], redisPrefix: l.prefix };
}

async function close(b: Backends): Promise<void> {
  await b.store.close();
  await b.bus.close();
}

/** Parse `argv` (the arguments after the script). @throws Error naming the bad argument. */
export function parseArgs(argv: readonly string[], env: NodeJS.ProcessEnv = process.env): { from: Location; to: Location } {
  const given = new Map<string, string>();
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    const [flag, inline] = a.includes('=') ? [a.slice(0, a.indexOf('=')), a.slice(a.indexOf('=') + 1)] : [a, undefined];
    if (!['--from', '--to', '--prefix', '--from-prefix', '--to-prefix'].includes(flag)) throw new Error(`unknown argument "${a}"`);
    const value = inline ?? argv[++i];
    if (value === undefined || value === '') throw new Error(`${flag} needs a value`);
    given.set(flag, value);
  }
  const from = given.get('--from');
  const to = given.get('--to');
  if (!from || !to) throw new Error(`${!from ? '--from' : '--to'} is required`);
  const prefix = given.get('--prefix') ?? (env.REDIS_PREFIX || 'cuecast:');
  const src = locationOf(from, given.get('--from-prefix') ?? prefix);
  const dst = locationOf(to, given.get('--to-prefix') ?? prefix);
  if (describe(src) === describe(dst)) throw new Error(`--from and --to are the same place (${describe(src)})`);
  if ('dataDir' in src) {
    const dir = src.dataDir;
    if (!existsSync(dir) || !statSync(dir).isDirectory()) throw new Error(`--from: no directory ${dir}`);
    if (!existsSync(resolve(dir, DB_FILE)) && readdirSync(dir).length === 0) throw new Error(`--from: ${dir} holds no embedded store (no ${DB_FILE})`);
  }
  return { from: src, to: dst };
}

/** Run a migration from the command line; `print` gets the lines to show. @returns the exit code. */
export async function runMigrate(argv: readonly string[], print: (line: string) => void = console.log, env: NodeJS.ProcessEnv = process.env): Promise<number> {
  let args: { from: Location; to: Location };
  try {
    args = parseArgs(argv, env);
  } catch (err) {
    print(`migrate: ${(err as Error).message}\n${USAGE}`);
    return 2;
  }
  const log = pino({ level: env.LOG_LEVEL || 'warn' }, pino.destination(2));
  print(`migrate: from ${describe(args.from)} to ${describe(args.to)}`);
  const source = await openBackends(optionsOf(args.from), log);
  let target: Backends | undefined;
  try {
    target = await openBackends(optionsOf(args.to), log);
    const r = await migrate(source.store, target.store, (line) => print(`  ${line}`));
    const copied = r.matches.copied + r.matches.resumed + r.tournaments.copied + r.shotClocks.copied + r.shotClocks.updated + r.sponsors.copied;
    print(
      copied === 0
        ? 'nothing to copy: the target holds all of it already'
        : `done: ${count(r.matches.copied + r.matches.resumed, 'match', 'matches')} (${count(r.matches.steps, 'step', 'steps')}), ${count(r.tournaments.copied, 'tournament', 'tournaments')}, ${count(r.shotClocks.copied + r.shotClocks.updated, 'shot clock', 'shot clocks')} and ${count(r.sponsors.copied, 'logo', 'logos')} copied`,
    );
    return 0;
  } catch (err) {
    if (err instanceof MigrationConflict || err instanceof MigrationCheckFailed) {
      print(`migrate: ${err.message}`);
      return 1;
    }
    throw err;
  } finally {
    await close(source);
    if (target) await close(target);
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  runMigrate(process.argv.slice(2)).then(
    (code) => process.exit(code),
    (err: Error) => {
      console.error(`migrate: ${err.message}`);
      process.exit(1);
    },
  );
}
