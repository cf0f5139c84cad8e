/**
 * `npm run migrate` between the embedded store and the real Redis (issue 26 step 7): a DATA_DIR of 50 matches
 * (some past a checkpoint, some with a shot clock) and 3 tournaments (one with a sponsor's logo), written through
 * the services, is copied into Redis under a test prefix; a Redis-mode server on that prefix then serves every
 * match (state, statistics, log, clock), tournament and logo as an embedded server on the DATA_DIR does. The
 * command prints what it copied and its check by replay hash; a second run copies nothing; and the way back,
 * Redis into a new DATA_DIR, serves the same again. (The copy's own cases: tests/services/migrate.test.ts.)
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openBackends } from '../../server/backends';
import { fill, servedOver } from '../helpers/migrate-fixture';
import { dropPrefix, requireRedis, testPrefix } from '../helpers/redis';
import { REPO_ROOT, startTestServer, tempDirs } from '../helpers/server';
import { services } from '../helpers/services';
import { runMigrate } from '../../scripts/migrate';

const redis = await requireRedis();
const dirs = tempDirs();
const run = promisify(execFile);

/** `npm run migrate -- …args` in a child process: its exit code and what it printed. */
async function npmMigrate(...args: string[]): Promise<{ code: number; out: string }> {
  try {
    const { stdout } = await run('npm', ['run', '--silent', 'migrate', '--', ...args], { cwd: REPO_ROOT, env: { ...process.env, LOG_LEVEL: 'silent' } });
    return { code: 0, out: stdout };
  } catch (err) {
    const e = err as { code: number; stdout: string; stderr: string };
    return { code: e.code, out: `${e.stdout}${e.stderr}` };
  }
}

/** The same command in this process (scripts/migrate.ts `runMigrate`; spares a child process's start-up). */
async function migrate(...args: string[]): Promise<{ code: number; out: string }> {
  const lines: string[] = [];
  const code = await runMigrate(args, (l) => lines.push(l), { ...process.env, LOG_LEVEL: 'silent' });
  return { code, out: lines.join('\n') };
}

describe.skipIf(!redis.available)('npm run migrate: embedded store to Redis and back', () => {
  const prefix = testPrefix('migrate');
  const dataDir = dirs('migrate-src');
  let embedded: unknown;

  beforeAll(async () => {
    const { store, bus } = await openBackends({ dataDir }, pino({ level: 'silent' }));
    await fill(services(store), { matches: 47, tournaments: 3, longEvery: 10 });
    await store.close();
    await bus.close();
    const server = await startTestServer({ dataDir });
    embedded = await servedOver(server);
    await server.close();
    expect(Object.keys(embedded as object).filter((k) => k.startsWith('match '))).toHaveLength(50);
    expect(Object.keys(embedded as object).filter((k) => k.startsWith('event '))).toHaveLength(3);
  });
  afterAll(() => dropPrefix(redis.url, prefix));

  it('copies 50 matches and 3 tournaments into Redis, says what it copied and checked; a Redis-mode server serves them equal', async () => {
    const first = await npmMigrate('--from', dataDir, '--to', redis.url, '--prefix', prefix);
    expect(first.code, first.out).toBe(0);
    expect(first.out).toContain(`to Redis ${redis.url} (keys ${prefix}*)`);
    expect(first.out).toMatch(/matches: 50 copied, 0 completed, 0 already there \(\d+ steps written\)/);
    expect(first.out).toContain('tournaments: 3 copied, 0 already there');
    expect(first.out).toContain("sponsors' logos: 1 copied");
    expect(first.out).toMatch(/done: 50 matches \(\d+ steps\), 3 tournaments, \d+ shot clocks and 1 logo copied/);
    expect(first.out).toContain('checked: 50 of 50 matches replay on the target to the source');
    const server = await startTestServer({ redisUrl: redis.url, redisPrefix: prefix });
    try {
      expect(await servedOver(server)).toEqual(embedded);
    } finally {
      await server.close();
    }
  });

  it('a second run copies nothing', async () => {
    const again = await migrate('--from', dataDir, '--to', redis.url, '--prefix', prefix);
    expect(again.code, again.out).toBe(0);
    expect(again.out).toContain('matches: 0 copied, 0 completed, 50 already there (0 steps written)');
    expect(again.out).toContain('nothing to copy');
  });

  it('and back: Redis into a new DATA_DIR, which an embedded server serves equal', async () => {
    const back = dirs('migrate-back');
    const res = await migrate(`--from=${redis.url}`, `--to=${back}`, `--prefix=${prefix}`);
    expect(res.code, res.out).toBe(0);
    expect(res.out).toContain('matches: 50 copied');
    const server = await startTestServer({ dataDir: back });
    try {
      expect(await servedOver(server)).toEqual(embedded);
    } finally {
      await server.close();
    }
  });
});
