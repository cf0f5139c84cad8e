/**
 * The draw's REST routes (issue 27) on a server over the real Redis (the draw store's Redis adapter under a test
 * prefix): bad input gets a clear error naming the field and changes nothing (fewer than 2 players, a player
 * twice, a player not on the roster, a result for a match not in the draw, a draw replaced after it began
 * without `cancel`); a random draw shows its seed; autopilot puts the ready matches on the tables.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningServer } from '../../server/app';
import { createEvent, type CreatedEvent } from '../helpers/events';
import { dropPrefix, requireRedis, testPrefix } from '../helpers/redis';
import { api, startTestServer } from '../helpers/server';

const redis = await requireRedis();

describe.skipIf(!redis.available)('draw REST routes', () => {
  const prefix = testPrefix('draws-http');
  let s: RunningServer;
  let ev: CreatedEvent;
  const draw = (path = '', body?: unknown, token: string | null = ev.organiserToken) =>
    api(s.url, `/api/events/${ev.id}/draw${path}`, { body, ...(token ? { token } : {}) });
  const players = () => ev.event.roster.map((p) => p.id);

  beforeAll(async () => {
    s = await startTestServer({ redisUrl: redis.url, redisPrefix: prefix });
    ev = await createEvent(s.url);
  });
  afterAll(async () => {
    await s?.close();
    await dropPrefix(redis.url, prefix);
  });

  it('refuses a bad draw naming the field, and makes nothing', async () => {
    const [p1, p2] = players();
    expect(await draw()).toMatchObject({ status: 404, body: { error: { code: 'not-found', field: 'draw' } } });
    const cases: [unknown, number, string, string][] = [
      [{ format: 'single', players: [p1] }, 400, 'players', 'at least 2'],
      [{ format: 'single', players: [p1, p2, p1] }, 400, 'players.2', 'twice'],
      [{ format: 'single', players: [p1, 'p99'] }, 400, 'players.1', 'roster'],
      [{ format: 'triple', players: [p1, p2] }, 400, 'format', ''],
      [{ format: 'round-robin' }, 400, 'groupSize', 'per group'],
      [{ format: 'single', seed: 5 }, 400, 'seed', 'random'],
      [{ format: 'single', featured: ['W9-9'] }, 400, 'featured.0', 'W9-9'],
      [{ format: 'single', races: { default: 0 } }, 400, 'races.default', ''],
      [{ format: 'single', colour: 'red' }, 400, 'colour', 'unknown'],
    ];
    for (const [body, status, field, words] of cases) {
      const res = await draw('', body);
      expect(res.status, JSON.stringify(body)).toBe(status);
      expect(res.body.error.field, JSON.stringify(body)).toBe(field);
      expect(res.body.error.message).toContain(words);
    }
    expect((await draw('', { format: 'single' }, null)).status).toBe(401);
    expect((await draw('', { format: 'single' }, 'wrong-token')).status).toBe(403);
    expect((await draw()).status).toBe(404);
  });

  it('a random draw shows its seed; a result for a match not in the draw is refused; a draw that began is replaced only with cancel', async () => {
    const made = await draw('', { format: 'single', seeding: 'random', races: { default: 5 } });
    expect(made.status).toBe(201);
    const seed = made.body.draw.draw.randomSeed;
    expect(Number.isInteger(seed)).toBe(true);
    expect(made.body.draw.definition.seeding).toEqual({ by: 'random', seed });
    const got = await draw();
    expect(got.body.draw.draw).toEqual(made.body.draw.draw);
    const again = await draw('', { format: 'single', seeding: 'random', seed, races: { default: 5 } });
    expect(again.body.draw.draw.seeds).toEqual(made.body.draw.draw.seeds);

    expect(await draw('/results', { match: 'W7-1', winner: players()[0], kind: 'win' })).toMatchObject({
      status: 400,
      body: { error: { code: 'not-in-draw', field: 'match' } },
    });
    const r1 = got.body.draw.draw.matches.find((m: { id: string }) => m.id === 'R1-1');
    expect(await draw('/results', { match: 'R1-1', winner: 'p99', kind: 'win' })).toMatchObject({
      status: 400,
      body: { error: { code: 'invalid-draw', field: 'winner' } },
    });
    expect(await draw('/results', { match: 'F', winner: r1.players[0], kind: 'win' })).toMatchObject({
      status: 409,
      body: { error: { code: 'not-ready', field: 'match' } },
    });
    const won = await draw('/results', { match: 'R1-1', winner: r1.players[1], kind: 'walkover' });
    expect(won.status).toBe(200);
    expect(won.body.draw.draw.matches.find((m: { id: string }) => m.id === 'F').players[0]).toBe(r1.players[1]);

    expect(await draw('', { format: 'double', races: { default: 5 } })).toMatchObject({
      status: 409,
      body: { error: { code: 'draw-started', field: 'cancel' } },
    });
    expect((await draw()).body.draw.definition.format).toBe('single');
    const replaced = await draw('', { format: 'double', races: { default: 5 }, cancel: true });
    expect(replaced.status).toBe(201);
    expect(replaced.body.draw.draw.matches.every((m: { status: string }) => m.status !== 'done')).toBe(true);
  });

  it("autopilot on puts ready matches on the tables with the draw's race; off pauses it", async () => {
    expect(await draw('/autopilot', { on: 'yes' })).toMatchObject({ status: 400, body: { error: { field: 'on' } } });
    const on = await draw('/autopilot', { on: true });
    expect(on.status).toBe(200);
    expect(on.body.draw.settings.autopilot).toBe(true);
    await expect
      .poll(async () => (await api(s.url, `/api/events/${ev.id}`)).body.tables.map((t: { current: string | null }) => t.current !== null), { timeout: 10_000 })
      .toEqual([true, true]);
    const playing = (await draw()).body.draw.draw.matches.filter((m: { status: string }) => m.status === 'playing');
    expect(playing).toHaveLength(2);
    const live = (await api(s.url, `/api/matches/${playing[0].matchId}`)).body;
    expect(live.state?.targets ?? live.setup?.targets).toEqual([5, 5]);
    expect((await draw('/autopilot', { on: false })).body.draw.settings.autopilot).toBe(false);
  });
});
