/**
 * Bad input against a draw whose first matches have started (issue 27 §7), on a server over the real Redis: a
 * new draw without `cancel`, a race change for a round that has begun, a result or a pin for a match that is not
 * in the draw, a winner who is not in the match — each refused with a clear error naming the field, and nothing
 * changes (the stored draw's version, format and entries stay). (Fewer than 2 players, a player twice, an
 * unknown player, a draw replaced after a result: tests/server/draws-http.test.ts; a non-http webhook URL:
 * webhooks.test.ts; a bad CSV row: results-http.test.ts.)
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningServer } from '../../server/app';
import { createEvent, type CreatedEvent } from '../helpers/events';
import { dropPrefix, requireRedis, testPrefix } from '../helpers/redis';
import { api, startTestServer } from '../helpers/server';

const redis = await requireRedis();

describe.skipIf(!redis.available)('a draw that has started refuses changes it cannot take', () => {
  const prefix = testPrefix('draw-bad-input');
  let s: RunningServer;
  let ev: CreatedEvent;
  const draw = (path = '', body?: unknown) => api(s.url, `/api/events/${ev.id}/draw${path}`, { body, token: ev.organiserToken });

  beforeAll(async () => {
    s = await startTestServer({ redisUrl: redis.url, redisPrefix: prefix });
    ev = await createEvent(s.url);
  });
  afterAll(async () => {
    await s?.close();
    await dropPrefix(redis.url, prefix);
  });

  it('names the field and changes nothing', async () => {
    expect((await draw('', { format: 'single', seeding: 'order', races: { default: 5 }, autopilot: true })).status).toBe(201);
    // Autopilot starts both semi-finals on the two tables.
    await expect
      .poll(async () => (await draw()).body.draw.draw.matches.filter((m: { status: string }) => m.status === 'playing').length, { timeout: 10_000 })
      .toBe(2);
    const before = (await draw()).body.draw;
    const [r11] = before.draw.matches;

    const refusals: [string, unknown, number, string, string][] = [
      ['', { format: 'double', races: { default: 5 } }, 409, 'draw-started', 'cancel'],
      ['', { format: 'single', races: { default: 5 }, cancel: false }, 409, 'draw-started', 'cancel'],
      ['/races', { round: 'R1', race: 9 }, 409, 'draw-started', 'round'],
      ['/races', { round: 'X7', race: 9 }, 400, 'not-in-draw', 'round'],
      ['/results', { match: 'W9-9', winner: r11.players[0], kind: 'win' }, 400, 'not-in-draw', 'match'],
      ['/results', { match: 'R1-1', winner: 'p99', kind: 'win' }, 400, 'invalid-draw', 'winner'],
      ['/results', { match: 'R1-1', winner: r11.players[0], kind: 'win', score: [1, 5] }, 400, 'invalid-draw', 'score'],
      ['/pins', { match: 'L4-4', table: 'table-1' }, 400, 'not-in-draw', 'match'],
      ['/pins', { match: 'F', table: 'Table 1!' }, 400, 'invalid-draw', 'table'],
      ['/autopilot', { on: 'yes' }, 400, 'invalid-draw', 'on'],
    ];
    for (const [path, body, status, code, field] of refusals) {
      const res = await draw(path, body);
      expect(res.status, `${path} ${JSON.stringify(body)}`).toBe(status);
      expect(res.body.error, `${path} ${JSON.stringify(body)}`).toMatchObject({ code, field });
      expect(res.body.error.message.length).toBeGreaterThan(10);
    }
    const after = (await draw()).body.draw;
    expect(after.version).toBe(before.version);
    expect(after.definition).toEqual(before.definition);
    expect(after.draw).toEqual(before.draw);

    // Cancelled explicitly, it is replaced.
    const replaced = await draw('', { format: 'double', races: { default: 5 }, cancel: true });
    expect(replaced.status).toBe(201);
    expect(replaced.body.draw.definition.format).toBe('double');
  });
});
