/**
 * No acknowledged step is lost when an instance dies: the server runs as a child process (tsx server/main.ts)
 * that is SIGKILLed while the scorer records shot after shot; a new process must hold every
 * acknowledged step, in order, at its acknowledged version. Redis mode (shared Redis, own key prefix) and
 * embedded mode (the SQLite database in DATA_DIR). Also a graceful restart in embedded mode.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { dropPrefix, requireRedis, testPrefix } from '../helpers/redis';
import { api, connect, createMatch, legalSteps, request, spawnServer, startTestServer, tempDirs, type ChildServer } from '../helpers/server';

const redis = await requireRedis();
const steps = legalSteps(400);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
/** Acknowledged steps before the kill (expectAllAcknowledged wants more than 5). */
const MIN_ACKED = 10;

/**
 * Record shot after shot on `server` (paced under the rate limit), kill it after ~`killAfterMs`, and return what was acknowledged.
 * Records after the kill fail (no ack); those are not acknowledged and may or may not be in the log.
 */
async function recordUntilKilled(server: ChildServer, matchId: string, token: string, killAfterMs: number) {
  const scorer = await connect(server.url, token, { reconnection: false });
  const acked: { stepId: string; version: number }[] = [];
  let killed = false;
  let stopped = false; // the loop ended without the kill (a failed record): kill at once
  // Kill after ~killAfterMs, and never before MIN_ACKED steps are acknowledged (a loaded machine may ack only a
  // few in that time): the kill still lands at a moment of its own, while a record is in flight.
  const killer = sleep(killAfterMs).then(async () => {
    while (acked.length < MIN_ACKED && !stopped) await sleep(5);
    killed = true;
    await server.kill();
  });
  try {
    for (let i = 0; !killed && i < steps.length; i++) {
      const ack = await request(scorer, 'record', { matchId, stepId: `k${i}`, expectedVersion: i, step: steps[i] }, 1000).catch(() => null);
      if (!ack) break;
      expect(ack).toMatchObject({ ok: true, version: i + 1 });
      if (ack.ok) acked.push({ stepId: `k${i}`, version: ack.version });
      await sleep(15); // stay under the production per-connection rate limit (20/s, burst 60)
    }
  } finally {
    stopped = true;
  }
  await killer;
  scorer.close();
  return acked;
}

async function expectAllAcknowledged(url: string, matchId: string, acked: { stepId: string; version: number }[]) {
  const log = await api(url, `/api/matches/${matchId}/steps`);
  expect(log.status).toBe(200);
  expect(acked.length).toBeGreaterThan(5);
  expect(log.body.version).toBeGreaterThanOrEqual(acked.length);
  for (const a of acked) expect(log.body.steps[a.version - 1]?.stepId).toBe(a.stepId);
  return log.body.version as number;
}

/**
 * Record on a server child started with `env` until it is SIGKILLed, start a second one on the same data,
 * check it holds every acknowledged step, then let `carryOn` record on it (the second child is killed after).
 */
async function killAndCarryOn(env: Record<string, string>, carryOn: (url: string, m: { id: string; scorerToken: string }, version: number) => Promise<void>) {
  const first = await spawnServer(env);
  const m = await createMatch(first.url);
  const acked = await recordUntilKilled(first, m.id, m.scorerToken, 700);
  const second = await spawnServer(env);
  try {
    await carryOn(second.url, m, await expectAllAcknowledged(second.url, m.id, acked));
  } finally {
    await second.kill();
  }
}

describe.skipIf(!redis.available)('killing an instance (Redis mode)', () => {
  const prefix = testPrefix('restart');
  afterAll(() => dropPrefix(redis.url, prefix));

  it('loses no acknowledged step, and the next instance carries on', async () => {
    await killAndCarryOn({ REDIS_URL: redis.url, REDIS_PREFIX: prefix }, async (url, m, version) => {
      const scorer = await connect(url, m.scorerToken);
      const ack = await request(scorer, 'record', { matchId: m.id, stepId: 'after', expectedVersion: version, step: steps[version] });
      scorer.close();
      expect(ack).toMatchObject({ ok: true, version: version + 1 });
    });
  });
});

describe('embedded mode (SQLite)', () => {
  const tempDir = tempDirs();

  it('a killed process loses no acknowledged step', async () => {
    await killAndCarryOn({ DATA_DIR: tempDir() }, async (url, m, version) => {
      const res = await api(url, `/api/matches/${m.id}/steps`, {
        token: m.scorerToken,
        body: { stepId: 'after', expectedVersion: version, step: steps[version] },
      });
      expect(res).toMatchObject({ status: 201, body: { version: version + 1 } });
    });
  });

  it('a graceful restart keeps matches, state, tokens, stepIds and the listing', async () => {
    const dataDir = tempDir();
    const a = await startTestServer({ dataDir });
    const m = await createMatch(a.url);
    const scorer = await connect(a.url, m.scorerToken);
    for (let i = 0; i < 20; i++) await request(scorer, 'record', { matchId: m.id, stepId: `g${i}`, expectedVersion: i, step: steps[i] });
    const before = (await api(a.url, `/api/matches/${m.id}`)).body;
    scorer.close();
    await a.close();

    const b = await startTestServer({ dataDir });
    try {
      const after = (await api(b.url, `/api/matches/${m.id}`)).body;
      expect(after).toEqual(before);
      expect(after.version).toBe(20);
      const list = (await api(b.url, '/api/matches')).body.matches;
      expect(list.find((x: { id: string }) => x.id === m.id)).toMatchObject({ version: 20 });
      const s = await connect(b.url, m.scorerToken);
      // A retry of an old stepId is still recognised after the restart; the token still works.
      expect(await request(s, 'record', { matchId: m.id, stepId: 'g19', step: steps[19] })).toMatchObject({ ok: true, version: 20, duplicate: true });
      expect(await request(s, 'record', { matchId: m.id, stepId: 'g20', expectedVersion: 20, step: steps[20] })).toMatchObject({ ok: true, version: 21 });
      s.close();
    } finally {
      await b.close();
    }
  });

  it('SIGTERM shuts down gracefully: exit code 0, and the data is intact for the next start', async () => {
    const env = { DATA_DIR: tempDir() };
    const first = await spawnServer(env);
    const m = await createMatch(first.url);
    const res = await api(first.url, `/api/matches/${m.id}/steps`, { token: m.scorerToken, body: { stepId: 'one', step: steps[0] } });
    expect(res.status).toBe(201);
    const exited = new Promise<number | null>((resolve) => first.proc.once('exit', (code) => resolve(code)));
    first.proc.kill('SIGTERM');
    expect(await exited).toBe(0);
    const second = await spawnServer(env);
    try {
      expect((await api(second.url, `/api/matches/${m.id}`)).body.version).toBe(1);
    } finally {
      await second.kill();
    }
  });
});
