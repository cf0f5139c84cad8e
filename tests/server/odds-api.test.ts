/**
 * `GET /api/matches/:id/odds.json` against a real server on Redis: what it takes for a match, with the players'
 * innings of their earlier matches of the event pooled (by name, either side), none for a match on no event or
 * for a match that started later; 404 for an unknown match.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningServer } from '../../server/app';
import type { Step } from '../../shared/protocol/steps';
import { createEvent, EVENT, recordStep, stepsToWin, tableMatch, type CreatedEvent } from '../helpers/events';
import { dropPrefix, requireRedis, testPrefix } from '../helpers/redis';
import { api, createMatch, startTestServer } from '../helpers/server';

const redis = await requireRedis();
const prefix = testPrefix('odds');

describe.skipIf(!redis.available)('what it takes over REST (Redis store)', () => {
  let s: RunningServer;
  let ev: CreatedEvent;

  beforeAll(async () => {
    s = await startTestServer({ redisUrl: redis.url, redisPrefix: prefix });
    ev = await createEvent(s.url);
  });
  afterAll(async () => {
    await s?.close();
    await dropPrefix(redis.url, prefix);
  });

  it('pools the earlier matches of the event for each player, by name and on either side', async () => {
    // Match 1: Ann (A) beats Bob (B) 3–0 after a safety break and a miss.
    const first = await tableMatch(s.url, ev, 'table-1', ['p1', 'p2'], true);
    const win: Step[] = stepsToWin({ ...EVENT.defaults, players: ['A', 'B'] });
    for (const step of win) await recordStep(s.url, first, step);
    // Match 2 on the other table, later: Bob (A) against Ann (B).
    const second = await tableMatch(s.url, ev, 'tv-table', ['p2', 'p1'], true);
    await recordStep(s.url, second, { shot: { call: 'safety', breakRails: { objectBalls: 2, cueBall: true } } });

    const res = await api(s.url, `/api/matches/${second.id}/odds.json`);
    expect(res.status).toBe(200);
    expect(res.body.earlierMatches).toEqual([first.id]);
    // Bob in match 1: one finished inning (the miss), 0 points; Ann: the break safety finished, 3 points in the open-ended winning inning.
    expect(res.body.earlier).toEqual([
      { points: 0, innings: 1, fouls: 0, threeFouls: 0 },
      { points: 3, innings: 1, fouls: 0, threeFouls: 0 },
    ]);
    const w = res.body.whatItTakes;
    expect(w.discipline).toBe('14-1');
    expect(w.needed).toEqual([3, 3]);
    expect(w.chance[0] + w.chance[1]).toBe(1);
    expect(w.players[1].innings).toBe(1);

    // The first match started earlier: the second is not among its earlier matches.
    const back = await api(s.url, `/api/matches/${first.id}/odds.json`);
    expect(back.body.earlierMatches).toEqual([]);
    expect(back.body.earlier).toEqual([null, null]);
    expect(back.body.whatItTakes.chance).toEqual([1, 0]);
  });

  it('a match on no event has no earlier innings; Rotation gives its points; an unknown match is 404', async () => {
    const m = await createMatch(s.url, { discipline: 'rotation', players: ['Ann', 'Bob'] });
    const res = await api(s.url, `/api/matches/${m.id}/odds.json`);
    expect(res.status).toBe(200);
    expect(res.body.earlier).toEqual([null, null]);
    expect(res.body.whatItTakes).toMatchObject({ discipline: 'rotation', pointsLeft: 120, rackNeeded: [61, 61], matchNeeded: [120, 120] });
    const missing = await api(s.url, '/api/matches/nope/odds.json');
    expect(missing.status).toBe(404);
    expect(missing.body.error.field).toBe('matchId');
  });
});
