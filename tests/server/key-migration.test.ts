/**
 * Matches stored by a version before the hash-tagged keys (`<prefix>m:<id>:log|meta|eids|snap`) on one real
 * Redis: two instances starting together move every old key once (RENAME inside one script per match) to
 * `<prefix>{m:<id>}:…`, log how many, and serve the old matches — listing, state, log, recording with the old
 * scorer token; a part whose new key exists already is left in place and reported; a later start reads only
 * the layout marker and moves nothing (server/storage/redis-migrate.ts).
 */
import { pino } from 'pino';
import { createClient } from 'redis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newMatch, replay, type Step, view } from '../../shared/index';
import { parseSetup } from '../../server/protocol/setup-schemas';
import type { RunningServer } from '../../server/app';
import { summaryOf } from '../../server/matches/service';
import { LAYOUT, legacyMatchKey } from '../../server/storage/redis-migrate';
import { matchKey } from '../../server/storage/redis-keyspace';
import { hashToken } from '../../server/tokens';
import { dropPrefix, requireRedis, testPrefix } from '../helpers/redis';
import { api, legalSteps, startTestServer } from '../helpers/server';

const redis = await requireRedis();
const RAW_SETUP = { discipline: '14-1', ruleset: 'nba', players: ['Ann', 'Bob'], targets: [100, 100] };
const setup = parseSetup(RAW_SETUP);
const BREAK: Step = { shot: { call: 'safety', breakRails: { objectBalls: 2, cueBall: true } } };
/** A step version 1 of the rules took (version 2 refuses it: D-30): old matches are version 1. */
const OLD_STEP: Step = { shot: { call: { ball: 3 }, pocketed: [3], rail: false } };

/** Log lines of one instance. */
function capturingLogger() {
  const lines: Record<string, unknown>[] = [];
  const logger = pino({ level: 'info' }, { write: (s: string) => void lines.push(JSON.parse(s)) });
  return { logger, lines };
}

describe.skipIf(!redis.available)('moving match keys of an earlier version to the hash-tagged layout', () => {
  const prefix = testPrefix('migrate');
  const r = createClient({ url: redis.url });
  const servers: RunningServer[] = [];
  const old = { a: { id: 'oldA', steps: [BREAK, OLD_STEP] }, b: { id: 'oldB', steps: legalSteps(5, RAW_SETUP) }, c: { id: 'oldC', steps: [BREAK] } };
  const token = 'token-of-the-old-matches';
  let oldKeys = 0;

  /** Write match `id` as the earlier version did: no rulesVersion in its meta (version 1), a stream log, stepIds, snapshot, listing. */
  async function writeOldMatch(id: string, steps: readonly Step[]): Promise<void> {
    const m = replay(setup, steps, 1);
    const at = Date.now();
    const snap = { summary: summaryOf(id, view(m), steps.length, at), state: view(m) };
    await r.hSet(legacyMatchKey(prefix, id, 'meta'), { setup: JSON.stringify(setup), tokenHash: hashToken(token), createdAt: String(at) });
    for (const [i, step] of steps.entries())
      await r.xAdd(legacyMatchKey(prefix, id, 'log'), `${i + 1}-0`, { e: `${id}-${i + 1}`, s: JSON.stringify(step), t: String(at) });
    await r.hSet(legacyMatchKey(prefix, id, 'eids'), Object.fromEntries(steps.map((_, i) => [`${id}-${i + 1}`, String(i + 1)])));
    await r.set(legacyMatchKey(prefix, id, 'snap'), JSON.stringify(snap));
    await r.zAdd(`${prefix}matches`, { score: at, value: id });
    oldKeys += 4;
  }

  beforeAll(async () => {
    r.on('error', () => undefined);
    await r.connect();
    for (const m of Object.values(old)) await writeOldMatch(m.id, m.steps);
    // Match C's snapshot exists in the new layout too (a clash): its old snapshot is left where it is.
    const fresh = view(newMatch(setup));
    await r.set(matchKey(prefix, old.c.id, 'snap'), JSON.stringify({ summary: summaryOf(old.c.id, fresh, 0, 1), state: fresh }));
  });
  afterAll(async () => {
    await Promise.all(servers.map((s) => s.close()));
    await dropPrefix(redis.url, prefix);
    await r.close();
  });

  it('two instances starting together move every old key exactly once, log it, and serve the old matches', async () => {
    const logs = [capturingLogger(), capturingLogger()];
    servers.push(...(await Promise.all(logs.map(({ logger }) => startTestServer({ redisUrl: redis.url, redisPrefix: prefix, logger })))));
    const reports = logs.flatMap((l) => l.lines.filter((x) => x.msg === 'match keys moved to the hash-tagged layout'));
    expect(reports).toHaveLength(2);
    expect(reports.reduce((n, x) => n + (x.keysMoved as number), 0)).toBe(oldKeys - 1);
    expect(reports.every((x) => x.matches === 3)).toBe(true);
    const clashes = logs.flatMap((l) => l.lines.filter((x) => x.msg === 'match keys in both layouts: the old ones were left in place'));
    expect(clashes.length).toBeGreaterThanOrEqual(1);
    expect(clashes.every((x) => x.matchId === old.c.id)).toBe(true);

    // The old names are gone (but C's clashing snapshot), the new ones hold the data, the marker is set.
    for (const { id, steps } of Object.values(old)) {
      expect(steps.length).toBeGreaterThan(0);
      for (const part of ['log', 'meta', 'eids', 'snap'] as const) {
        expect(await r.exists(legacyMatchKey(prefix, id, part)), `${id} ${part}`).toBe(id === old.c.id && part === 'snap' ? 1 : 0);
        expect(await r.exists(matchKey(prefix, id, part)), `${id} ${part}`).toBe(1);
      }
    }
    expect(await r.get(`${prefix}layout`)).toBe(LAYOUT);

    // Served by both instances: the listing, the state (a version-1 match: its old step loads), the log, recording.
    const [s1, s2] = servers as [RunningServer, RunningServer];
    const listed = (await api(s2.url, '/api/matches')).body.matches.map((x: { id: string }) => x.id);
    expect(listed).toEqual(expect.arrayContaining([old.a.id, old.b.id, old.c.id]));
    const a = await api(s1.url, `/api/matches/${old.a.id}`);
    expect(a).toMatchObject({ status: 200, body: { version: 2, rulesVersion: 1 } });
    expect(a.body.state).toEqual(view(replay(setup, old.a.steps, 1)));
    expect((await api(s2.url, `/api/matches/${old.b.id}/steps`)).body.steps.map((e: { stepId: string }) => e.stepId)).toEqual(
      old.b.steps.map((_, i) => `oldB-${i + 1}`),
    );
    const rec = await api(s2.url, `/api/matches/${old.a.id}/steps`, {
      token,
      body: { stepId: 'after-upgrade', expectedVersion: 2, step: { shot: { call: { ball: 5 }, rail: true } } },
    });
    expect(rec).toMatchObject({ status: 201, body: { version: 3 } });
    // A retried stepId of the old log is still known.
    expect(await api(s1.url, `/api/matches/${old.b.id}/steps`, { token, body: { stepId: 'oldB-1', step: old.b.steps[0] } })).toMatchObject({
      status: 200,
      body: { version: 1, duplicate: true },
    });
  });

  it('a later start reads the marker and moves nothing', async () => {
    const { logger, lines } = capturingLogger();
    servers.push(await startTestServer({ redisUrl: redis.url, redisPrefix: prefix, logger }));
    expect(lines.some((x) => x.msg === 'match keys moved to the hash-tagged layout')).toBe(false);
    expect((await api(servers.at(-1)!.url, `/api/matches/${old.a.id}`)).body.version).toBe(3);
  });
});
