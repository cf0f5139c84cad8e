/**
 * Two server instances sharing one real Redis (127.0.0.1:6379 or REDIS_URL), each suite under its own key
 * prefix: cross-instance fan-out, idempotent stepIds, stale versions, scorer-only recording.
 */
import { describe, expect, it } from 'vitest';
import { createClient } from 'redis';
import type { Step } from '../../shared/protocol/steps';
import { requireRedis, testPrefix } from '../helpers/redis';
import { api, createMatch, legalSteps, request, twoInstances, Viewer } from '../helpers/server';
import { hashToken } from '../../server/tokens';

const redis = await requireRedis();
const prefix = testPrefix('fanout');
const steps = legalSteps(40);

describe.skipIf(!redis.available)('two instances over one Redis', () => {
  const pair = twoInstances(redis.url, prefix);
  const open = pair.open;

  it('a shot recorded on instance 1 reaches a viewer on instance 2, in version order, with state and stats', async () => {
    const m = await createMatch(pair.s1.url);
    const viewerSocket = await open(pair.s2.url);
    const viewer = new Viewer(viewerSocket);
    const sub = await request(viewerSocket, 'subscribe', { matchId: m.id });
    expect(sub.ok).toBe(true);
    if (!sub.ok || 'unchanged' in sub) return;
    expect(sub.version).toBe(0);
    expect(sub.setup.players).toEqual(['Ann', 'Bob']);
    expect(sub.state.score).toEqual([0, 0]);

    const scorer = await open(pair.s1.url, m.scorerToken);
    for (let i = 0; i < 5; i++) {
      const ack = await request(scorer, 'record', { matchId: m.id, stepId: `e${i}`, expectedVersion: i, step: steps[i] });
      expect(ack).toMatchObject({ ok: true, matchId: m.id, version: i + 1 });
    }
    await viewer.waitFor(5);
    expect(viewer.pushes.map((p) => p.version)).toEqual([1, 2, 3, 4, 5]);
    const last = viewer.pushes[4]!;
    expect(last.step).toEqual(steps[4]);
    // The full room's push carries what changed in the statistics since the version before.
    expect(last.stats?.since).toBe(4);
    expect(last.stats?.sheet.rows.length).toBeGreaterThan(0);
    // Both instances answer REST with the same state.
    const [a, b] = await Promise.all([api(pair.s1.url, `/api/matches/${m.id}`), api(pair.s2.url, `/api/matches/${m.id}`)]);
    expect(a.body.version).toBe(5);
    expect(b.body).toEqual(a.body);
    expect(b.body.state).toEqual(last.state);
  });

  it('a scorer can record on either instance; each picks up what the other wrote', async () => {
    const m = await createMatch(pair.s2.url);
    const on1 = await open(pair.s1.url, m.scorerToken);
    const on2 = await open(pair.s2.url, m.scorerToken);
    for (let i = 0; i < 6; i++) {
      const ack = await request(i % 2 ? on2 : on1, 'record', { matchId: m.id, stepId: `x${i}`, expectedVersion: i, step: steps[i] });
      expect(ack).toMatchObject({ ok: true, version: i + 1 });
    }
    // Without expectedVersion (a Companion button), a stale cache is caught up and the step appended at the end.
    const r = await api(pair.s1.url, `/api/matches/${m.id}/steps`, { token: m.scorerToken, body: { stepId: 'x6', step: steps[6] } });
    expect(r.status).toBe(201);
    expect(r.body.version).toBe(7);
    const log = await api(pair.s2.url, `/api/matches/${m.id}/steps`);
    expect(log.body.steps.map((e: { stepId: string }) => e.stepId)).toEqual(['x0', 'x1', 'x2', 'x3', 'x4', 'x5', 'x6']);
  });

  it('a retried stepId gives one event and the original result, on the same or the other instance', async () => {
    const m = await createMatch(pair.s1.url);
    const on1 = await open(pair.s1.url, m.scorerToken);
    const on2 = await open(pair.s2.url, m.scorerToken);
    const req = { matchId: m.id, stepId: 'once', expectedVersion: 0, step: steps[0] };
    const first = await request(on1, 'record', req);
    expect(first).toMatchObject({ ok: true, version: 1 });
    const again = await request(on1, 'record', req);
    const other = await request(on2, 'record', req);
    expect(again).toMatchObject({ ok: true, version: 1, duplicate: true });
    expect(other).toMatchObject({ ok: true, version: 1, duplicate: true });
    if (first.ok && other.ok) expect(other.state).toEqual(first.state);
    // After more steps, a late retry still returns the state right after the original step.
    await request(on1, 'record', { matchId: m.id, stepId: 'two', expectedVersion: 1, step: steps[1] });
    const late = await request(on2, 'record', req);
    expect(late).toMatchObject({ ok: true, version: 1, duplicate: true });
    if (first.ok && late.ok) expect(late.state).toEqual(first.state);
    // Concurrent retries on both instances of a new stepId: still one event.
    const dupReq = { matchId: m.id, stepId: 'race', expectedVersion: 2, step: steps[2] };
    const acks = await Promise.all([request(on1, 'record', dupReq), request(on2, 'record', dupReq), request(on1, 'record', dupReq)]);
    expect(acks.every((a) => a.ok && a.version === 3)).toBe(true);
    expect(acks.filter((a) => a.ok && !a.duplicate)).toHaveLength(1);
    const log = await api(pair.s1.url, `/api/matches/${m.id}/steps`);
    expect(log.body.steps.map((e: { stepId: string }) => e.stepId)).toEqual(['once', 'two', 'race']);
  });

  it('an stepId reused with another step is refused (step-id-reused, REST 409) on the other instance too, and appends nothing', async () => {
    const m = await createMatch(pair.s1.url);
    // Instance 2 loads the match at version 0 and keeps that cache: the reuse is found by the Redis dedupe.
    const watcher = await open(pair.s2.url);
    const watched = new Viewer(watcher);
    expect(await request(watcher, 'subscribe', { matchId: m.id })).toMatchObject({ ok: true, version: 0 });
    const on1 = await open(pair.s1.url, m.scorerToken);
    const on2 = await open(pair.s2.url, m.scorerToken);
    expect(await request(on1, 'record', { matchId: m.id, stepId: 'fixed', step: steps[0] })).toMatchObject({ ok: true, version: 1 });
    const safetyBreak = { shot: { call: 'safety', breakRails: { objectBalls: 2, cueBall: true } } };
    const path = `/api/matches/${m.id}/steps`;
    const reused = await api(pair.s2.url, path, { token: m.scorerToken, body: { stepId: 'fixed', step: safetyBreak } });
    expect(reused).toMatchObject({ status: 409, body: { error: { code: 'step-id-reused', field: 'stepId' } } });
    expect(reused.body.error.message).toMatch(/"fixed".*version 1/);
    // The same step, keys in another order, is still the idempotent retry there.
    const shot = (steps[0] as { shot: Record<string, unknown> }).shot;
    const reordered = { shot: Object.fromEntries(Object.entries(shot).reverse()) };
    expect(await request(on2, 'record', { stepId: 'fixed', step: reordered, matchId: m.id })).toMatchObject({ ok: true, version: 1, duplicate: true });
    // A new stepId sent with two different steps to both instances at once: one records, the other is refused.
    const mid: Step = { shot: { call: 'safety' } };
    const [a, b] = await Promise.all([
      request(on1, 'record', { matchId: m.id, stepId: 'both', step: steps[1] }),
      request(on2, 'record', { matchId: m.id, stepId: 'both', step: mid }),
    ]);
    expect([a, b].filter((x) => x.ok)).toHaveLength(1);
    expect([a, b].find((x) => !x.ok)).toMatchObject({ ok: false, error: { code: 'step-id-reused', field: 'stepId' } });
    const log = await api(pair.s1.url, path);
    expect(log.body.steps.map((e: { stepId: string }) => e.stepId)).toEqual(['fixed', 'both']);
    expect(log.body.steps[0].step).toEqual(steps[0]);
    expect(log.body.steps[1].step).toEqual(a.ok ? steps[1] : mid);
    await watched.waitFor(2);
    await new Promise((r) => setTimeout(r, 100));
    expect(watched.pushes.map((p) => p.version)).toEqual([1, 2]);
  });

  it('conflicting appends from two instances: one wins, the other gets stale with the current version', async () => {
    const m = await createMatch(pair.s1.url);
    const on1 = await open(pair.s1.url, m.scorerToken);
    const on2 = await open(pair.s2.url, m.scorerToken);
    const [a, b] = await Promise.all([
      request(on1, 'record', { matchId: m.id, stepId: 'a', expectedVersion: 0, step: steps[0] }),
      request(on2, 'record', { matchId: m.id, stepId: 'b', expectedVersion: 0, step: steps[0] }),
    ]);
    const oks = [a, b].filter((x) => x.ok);
    const stale = [a, b].filter((x) => !x.ok);
    expect(oks).toHaveLength(1);
    expect(stale).toHaveLength(1);
    expect(stale[0]).toMatchObject({ ok: false, error: { code: 'stale', field: 'expectedVersion' }, currentVersion: 1 });
    const log = await api(pair.s2.url, `/api/matches/${m.id}/steps`);
    expect(log.body.version).toBe(1);
  });

  it('a stale expectedVersion is refused (socket `stale`, REST 409 with currentVersion) and changes nothing', async () => {
    const m = await createMatch(pair.s1.url);
    const scorer = await open(pair.s1.url, m.scorerToken);
    await request(scorer, 'record', { matchId: m.id, stepId: 's0', expectedVersion: 0, step: steps[0] });
    const ack = await request(scorer, 'record', { matchId: m.id, stepId: 's1', expectedVersion: 0, step: steps[1] });
    expect(ack).toMatchObject({ ok: false, error: { code: 'stale' }, currentVersion: 1 });
    const rest = await api(pair.s2.url, `/api/matches/${m.id}/steps`, { token: m.scorerToken, body: { stepId: 's2', expectedVersion: 5, step: steps[1] } });
    expect(rest.status).toBe(409);
    expect(rest.body).toMatchObject({ error: { code: 'stale', field: 'expectedVersion' }, currentVersion: 1 });
    expect((await api(pair.s1.url, `/api/matches/${m.id}`)).body.version).toBe(1);
  });

  it('a viewer connection cannot record; a wrong or foreign token is refused', async () => {
    const m = await createMatch(pair.s1.url);
    const other = await createMatch(pair.s1.url);
    const viewerSocket = await open(pair.s2.url);
    const viewer = new Viewer(viewerSocket);
    await request(viewerSocket, 'subscribe', { matchId: m.id });
    const req = { matchId: m.id, stepId: 'v', expectedVersion: 0, step: steps[0] };
    expect(await request(viewerSocket, 'record', req)).toMatchObject({ ok: false, error: { code: 'forbidden' } });
    const wrong = await open(pair.s1.url, 'not-the-token');
    expect(await request(wrong, 'record', req)).toMatchObject({ ok: false, error: { code: 'forbidden', field: 'token' } });
    const foreign = await open(pair.s2.url, other.scorerToken);
    expect(await request(foreign, 'record', req)).toMatchObject({ ok: false, error: { code: 'forbidden' } });
    // REST: no token 401, wrong token 403.
    const noToken = await api(pair.s1.url, `/api/matches/${m.id}/steps`, { body: { stepId: 'r', step: steps[0] } });
    expect(noToken.status).toBe(401);
    expect(noToken.body.error.code).toBe('unauthorized');
    const badToken = await api(pair.s1.url, `/api/matches/${m.id}/steps`, { token: other.scorerToken, body: { stepId: 'r', step: steps[0] } });
    expect(badToken.status).toBe(403);
    expect(badToken.body.error.code).toBe('forbidden');
    // Nothing was recorded or pushed.
    expect((await api(pair.s2.url, `/api/matches/${m.id}`)).body.version).toBe(0);
    await new Promise((r) => setTimeout(r, 100));
    expect(viewer.pushes).toHaveLength(0);
  });

  it('subscribe refuses an unknown match and resyncs from sinceVersion with the latest snapshot', async () => {
    const viewerSocket = await open(pair.s1.url);
    expect(await request(viewerSocket, 'subscribe', { matchId: 'nope' })).toMatchObject({ ok: false, error: { code: 'not-found', field: 'matchId' } });
    const m = await createMatch(pair.s1.url);
    const scorer = await open(pair.s2.url, m.scorerToken);
    for (let i = 0; i < 3; i++) await request(scorer, 'record', { matchId: m.id, stepId: `r${i}`, expectedVersion: i, step: steps[i] });
    const ack = await request(viewerSocket, 'subscribe', { matchId: m.id, sinceVersion: 1 });
    expect(ack).toMatchObject({ ok: true, version: 3 });
  });

  it('lists matches and serves the log and the score sheet as CSV', async () => {
    const m = await createMatch(pair.s1.url, { discipline: '14-1', ruleset: 'nba', players: ['Cara, "C"', 'Dan'], targets: [1000, 1000] });
    const scorer = await open(pair.s1.url, m.scorerToken);
    for (let i = 0; i < 3; i++) await request(scorer, 'record', { matchId: m.id, stepId: `c${i}`, expectedVersion: i, step: steps[i] });
    const list = await api(pair.s2.url, '/api/matches');
    const row = list.body.matches.find((x: { id: string }) => x.id === m.id);
    expect(row).toMatchObject({ id: m.id, discipline: '14-1', names: ['Cara, "C"', 'Dan'], version: 3 });
    const csv = await api(pair.s2.url, `/api/matches/${m.id}/sheet.csv`);
    expect(csv.status).toBe(200);
    const lines = (csv.body as string).trim().split('\r\n');
    expect(lines[0]).toBe('player,name,inning,rack,points,penalty,mark,total,balls,open');
    expect(lines[1]).toMatch(/^A,"Cara, ""C""",1,/);
  });

  it('keeps the log as a Redis Stream with ids <version>-0, and set-up, token hash, snapshot and stepIds beside it', async () => {
    const m = await createMatch(pair.s1.url);
    const scorer = await open(pair.s2.url, m.scorerToken);
    for (let i = 0; i < 4; i++) await request(scorer, 'record', { matchId: m.id, stepId: `k${i}`, expectedVersion: i, step: steps[i] });
    const r = createClient({ url: redis.url });
    r.on('error', () => undefined);
    await r.connect();
    try {
      const entries = await r.xRange(`${prefix}{m:${m.id}}:log`, '-', '+');
      expect(entries.map((e) => e.id)).toEqual(['1-0', '2-0', '3-0', '4-0']);
      expect(entries.map((e) => JSON.parse(e.message.s!))).toEqual(steps.slice(0, 4));
      const meta = await r.hGetAll(`${prefix}{m:${m.id}}:meta`);
      expect(JSON.parse(meta.setup!).players).toEqual(['Ann', 'Bob']);
      expect(meta.tokenHash).toBe(hashToken(m.scorerToken));
      expect(JSON.stringify(meta)).not.toContain(m.scorerToken);
      const snap = JSON.parse((await r.get(`${prefix}{m:${m.id}}:snap`))!);
      const current = (await api(pair.s1.url, `/api/matches/${m.id}`)).body;
      expect(snap.state).toEqual(current.state);
      expect(snap.summary).toMatchObject({ id: m.id, version: 4, score: current.state.score });
      expect(await r.hGetAll(`${prefix}{m:${m.id}}:eids`)).toEqual({ k0: '1', k1: '2', k2: '3', k3: '4' });
      // An append that skips the compare (another writer at a stale version) is refused by XADD's id check.
      await expect(r.xAdd(`${prefix}{m:${m.id}}:log`, '3-0', { e: 'rogue', s: '{}', t: '0' })).rejects.toThrow(/equal or smaller/);
    } finally {
      await r.close();
    }
  });
});
