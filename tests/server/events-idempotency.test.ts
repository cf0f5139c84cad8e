/**
 * `POST /api/events` with an `Idempotency-Key` (issue 29: three presses of *Create event* made three events), on a
 * server over the real Redis: three requests with one key at once make one event and all get its 201 (same id and
 * organiser token); a later repeat still gets it; another key makes another event; no key behaves as before; a
 * malformed key is refused naming `Idempotency-Key` and makes nothing; a refused creation is not remembered, so
 * the corrected retry with the same key creates.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningServer } from '../../server/app';
import { EVENT } from '../helpers/events';
import { dropPrefix, requireRedis, testPrefix } from '../helpers/redis';
import { startTestServer } from '../helpers/server';

const redis = await requireRedis();

describe.skipIf(!redis.available)('POST /api/events honours Idempotency-Key', () => {
  const prefix = testPrefix('events-idem');
  let s: RunningServer;
  const create = async (body: unknown, key?: string) => {
    const headers: Record<string, string> = { 'content-type': 'application/json' };
    if (key !== undefined) headers['idempotency-key'] = key;
    const res = await fetch(`${s.url}/api/events`, { method: 'POST', headers, body: JSON.stringify(body) });
    return { status: res.status, body: (await res.json()) as { id?: string; organiserToken?: string; error?: { field?: string; code: string } } };
  };
  const count = async () => ((await (await fetch(`${s.url}/api/events`)).json()) as { events: unknown[] }).events.length;

  beforeAll(async () => {
    s = await startTestServer({ redisUrl: redis.url, redisPrefix: prefix });
  });
  afterAll(async () => {
    await s?.close();
    await dropPrefix(redis.url, prefix);
  });

  it('one key, three requests at once: one event, the same answer to each; a later repeat too', async () => {
    const before = await count();
    const key = 'a1b2c3d4e5f60718293a4b5c6d7e8f90';
    const answers = await Promise.all([create(EVENT, key), create(EVENT, key), create(EVENT, key)]);
    for (const a of answers) expect(a.status).toBe(201);
    expect(new Set(answers.map((a) => a.body.id)).size).toBe(1);
    expect(new Set(answers.map((a) => a.body.organiserToken)).size).toBe(1);
    const again = await create({ ...EVENT, name: 'Other name' }, key);
    expect(again.status).toBe(201);
    expect(again.body.id).toBe(answers[0]!.body.id);
    expect(await count()).toBe(before + 1);
  });

  it('another key, or no key, makes another event', async () => {
    const before = await count();
    const a = await create(EVENT, 'another-key-0001');
    const b = await create(EVENT);
    const c = await create(EVENT);
    expect([a.status, b.status, c.status]).toEqual([201, 201, 201]);
    expect(new Set([a.body.id, b.body.id, c.body.id]).size).toBe(3);
    expect(await count()).toBe(before + 3);
  });

  it('a malformed key is refused naming the header, and makes nothing', async () => {
    const before = await count();
    for (const key of ['short', 'has spaces in it', 'x'.repeat(129), 'semi;colon-key']) {
      const r = await create(EVENT, key);
      expect(r.status).toBe(400);
      expect(r.body.error).toMatchObject({ code: 'invalid-request', field: 'Idempotency-Key' });
    }
    expect(await count()).toBe(before);
  });

  it('a refused creation is not remembered: the corrected retry with the same key creates', async () => {
    const before = await count();
    const key = 'retry-after-refusal-1';
    const bad = await create({ ...EVENT, name: '' }, key);
    expect(bad.status).toBe(400);
    const good = await create(EVENT, key);
    expect(good.status).toBe(201);
    expect(await count()).toBe(before + 1);
  });
});
