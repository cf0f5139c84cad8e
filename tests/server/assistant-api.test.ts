/**
 * Issue 28 end to end over HTTP and a real Redis: an event's table plays a 14-1 match (a 20-ball run that wins a
 * rack, a run by the other player, the win) on a server whose clock moves 15 s per step; the producer sets the
 * table's stream start over REST; `highlights.json` has the rack won, the run and the match won, and
 * `chapters.txt` follows YouTube's rules (starts at 0:00, ascending, at least 3 chapters, at least 10 s apart), in
 * each language. Bad input — a stream start in the future or before the event, a threshold out of range, an
 * unknown language, a `start` before the match — is a clear 400 naming the field, and changes nothing.
 * `talking-points.json` answers ranked points with numbers.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { RunningServer } from '../../server/app';
import type { Step } from '../../shared/protocol/steps';
import { createEvent, recordStep, tableMatch, type CreatedEvent } from '../helpers/events';
import { dropPrefix, requireRedis, testPrefix } from '../helpers/redis';
import { api, createMatch, startTestServer } from '../helpers/server';

const redis = await requireRedis();
const T0 = Date.UTC(2026, 11, 3, 18, 0, 0);
let now = T0;
const clock = { now: () => now };

const breakSafety: Step = { shot: { call: 'safety', breakRails: { objectBalls: 2, cueBall: true } } };
const ball: Step = { shot: { call: { ball: 1 }, pocketed: 1 } };
const miss: Step = { shot: { call: { ball: 1 } } };
// A breaks; B runs 20 (rack 1 is B's, 14–0, at the re-rack), misses; A runs 12, misses; B runs the 10 to 30.
const PLAY: Step[] = [breakSafety, ...Array<Step>(20).fill(ball), miss, ...Array<Step>(12).fill(ball), miss, ...Array<Step>(10).fill(ball)];

/** A YouTube chapter list's rules: first line 0:00, ascending times at least 10 s apart, at least 3 lines. */
function youTubeRules(text: string): number[] {
  const lines = text.trimEnd().split('\n');
  const secs = lines.map((l) => {
    const m = /^(?:(\d+):)?(\d+):(\d\d) \S.*$/.exec(l);
    expect(m, l).not.toBeNull();
    return Number(m![1] ?? 0) * 3600 + Number(m![2]) * 60 + Number(m![3]);
  });
  expect(secs[0]).toBe(0);
  expect(secs.length).toBeGreaterThanOrEqual(3);
  for (let i = 1; i < secs.length; i++) expect(secs[i]! - secs[i - 1]!).toBeGreaterThanOrEqual(10);
  return secs;
}

describe.skipIf(!redis.available)('highlights, chapters and talking points over REST (Redis)', () => {
  let server: RunningServer;
  let prefix: string;
  let ev: CreatedEvent;
  let match: { id: string; scorerToken: string };
  let table: string;

  beforeAll(async () => {
    prefix = testPrefix('assistant');
    server = await startTestServer({ redisUrl: redis.url, redisPrefix: prefix, clock });
    ev = await createEvent(server.url, {
      name: 'Winter Open',
      date: '2026-12-03',
      defaults: { discipline: '14-1', ruleset: 'nba', targets: [30, 30] },
      tables: ['TV table'],
      roster: [
        { name: 'Ann Lee', short: 'Lee' },
        { name: 'Ken Watanabe', short: 'Watanabe' },
      ],
    });
    table = ev.event.tables[0]!.id;
    now += 60_000;
    match = await tableMatch(server.url, ev, table, [ev.event.roster[0]!.id, ev.event.roster[1]!.id], true);
    for (const step of PLAY) {
      now += 15_000;
      await recordStep(server.url, match, step);
    }
  });
  afterAll(async () => {
    await server?.close();
    await dropPrefix(redis.url, prefix);
  });

  test('highlights.json: the 20-ball run, the rack it won, the match won, with server times', async () => {
    const res = await api(server.url, `/api/matches/${match.id}/highlights.json`);
    expect(res.status).toBe(200);
    const hs = res.body.highlights as { kind: string; player: string; at: number; from: number; numbers: Record<string, number>; title: string }[];
    const run20 = hs.find((h) => h.kind === 'run' && h.numbers.run === 20)!;
    expect(run20).toMatchObject({ player: 'B', title: 'Rack 1 — Watanabe 20-ball run' });
    // The run's first shot was the second step, 15 s after the break.
    expect(run20.from).toBe(T0 + 60_000 + 2 * 15_000);
    expect(hs.find((h) => h.kind === 'rack-won')).toMatchObject({ player: 'B', numbers: { own: 14, other: 0 } });
    expect(hs.at(-1)).toMatchObject({ kind: 'match-won', player: 'B', title: 'Rack 3 — Watanabe wins 12–30' });
    expect(res.body.options).toEqual({ runThreshold: 10, comebackFrom: 30, eventHighRun: 0 });
    const strict = await api(server.url, `/api/matches/${match.id}/highlights.json?threshold=15`);
    expect(strict.body.highlights.filter((h: { kind: string }) => h.kind === 'run').map((h: { numbers: { run: number } }) => h.numbers.run)).toEqual([20]);
  });

  test('no stream start known yet: 409 no-stream-start naming start', async () => {
    const res = await api(server.url, `/api/matches/${match.id}/chapters.txt`);
    expect(res.status).toBe(409);
    expect(res.body.error).toMatchObject({ code: 'no-stream-start', field: 'start' });
  });

  test('bad stream starts and options are refused by name; nothing changes', async () => {
    const put = (body: unknown, token = ev.organiserToken) =>
      api(server.url, `/api/events/${ev.id}/tables/${table}/stream-start`, { method: 'PUT', token, body });
    const future = await put({ at: now + 60_000 });
    expect(future.status).toBe(400);
    expect(future.body.error).toMatchObject({ code: 'invalid-request', field: 'at' });
    expect(future.body.error.message).toMatch(/in the future/);
    const early = await put({ at: '2026-12-02T18:00:00Z' });
    expect(early.status).toBe(400);
    expect(early.body.error.message).toMatch(/before the event was created/);
    expect((await put({ at: 'yesterday' })).body.error).toMatchObject({ field: 'at' });
    expect((await put({ at: T0 + 1000 }, 'wrong')).status).toBe(403);
    expect((await api(server.url, `/api/events/${ev.id}/tables/${table}/stream-start`)).body).toEqual({ streamStart: null });
    const thr = await api(server.url, `/api/matches/${match.id}/highlights.json?threshold=500`);
    expect(thr.status).toBe(400);
    expect(thr.body.error).toMatchObject({ code: 'invalid-request', field: 'threshold' });
    expect((await api(server.url, `/api/matches/${match.id}/chapters.txt?lang=fr`)).body.error).toMatchObject({ field: 'lang' });
    const before = await api(server.url, `/api/matches/${match.id}/chapters.txt?start=${T0}`);
    expect(before.status).toBe(400);
    expect(before.body.error).toMatchObject({ field: 'start' });
    expect(before.body.error.message).toMatch(/before the match was created/);
  });

  test('chapters.txt aligned to the table stream start follows YouTube rules, in three languages', async () => {
    // The stream started 30 s after the event was made (before the match went on the table).
    const set = await api(server.url, `/api/events/${ev.id}/tables/${table}/stream-start`, {
      method: 'PUT',
      token: ev.organiserToken,
      body: { at: new Date(T0 + 30_000).toISOString(), source: 'streaming' },
    });
    expect(set.status).toBe(200);
    expect(set.body.streamStart).toMatchObject({ at: T0 + 30_000, source: 'streaming' });
    const en = await api(server.url, `/api/matches/${match.id}/chapters.txt`);
    expect(en.status).toBe(200);
    const secs = youTubeRules(en.body as string);
    expect(en.body).toMatch(/^0:00 Lee vs Watanabe\n/);
    // The 20-ball run from its first shot: 30 s (stream to match) + 30 s (the break, then its first shot).
    expect(en.body).toContain('1:00 Rack 1 — Watanabe 20-ball run');
    expect(en.body).toMatch(/\d+:\d\d Rack 3 — Watanabe wins 12–30\n$/);
    expect(secs.length).toBeGreaterThanOrEqual(4);
    for (const lang of ['ja', 'zh-TW']) {
      const t = await api(server.url, `/api/matches/${match.id}/chapters.txt?lang=${lang}`);
      expect(youTubeRules(t.body as string)).toEqual(secs);
      expect(t.body).toMatch(/[\u3040-\u30ff\u4e00-\u9fff]/);
    }
    // An explicit start overrides the table's (later: the run's chapter moves earlier).
    const own = await api(server.url, `/api/matches/${match.id}/chapters.txt?start=${T0 + 75_000}`);
    expect(own.body).toContain('0:15 Rack 1 — Watanabe 20-ball run');
  });

  test('a standalone match without a start: no-stream-start says to give ?start=', async () => {
    const m = await createMatch(server.url, { discipline: '14-1', ruleset: 'nba', players: ['X', 'Y'], targets: [20, 20] });
    const res = await api(server.url, `/api/matches/${m.id}/chapters.txt`);
    expect(res.status).toBe(409);
    expect(res.body.error.message).toMatch(/\?start=/);
    expect((await api(server.url, '/api/matches/nope/chapters.txt')).status).toBe(404);
  });

  test('talking-points.json: ranked, with numbers, in the asked language', async () => {
    const res = await api(server.url, `/api/matches/${match.id}/talking-points.json?lang=ja`);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ matchId: match.id, lang: 'ja', version: PLAY.length });
    const pts = res.body.points as { kind: string; text: string; weight: number; numbers: Record<string, number> }[];
    expect(pts.find((p) => p.kind === 'best-run')).toMatchObject({ numbers: { run: 20 }, text: '20がこの試合のベストラン（Watanabe）' });
  });
});
