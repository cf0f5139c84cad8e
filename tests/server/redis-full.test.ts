/**
 * A full Redis (issue 30: docker-compose.yml runs Redis with `maxmemory` and `noeviction`): a private
 * redis-server started with a small maxmemory (8 MB) is filled to the brim, and then every write path — match
 * creation, a step over REST and over Socket.IO, the shot clock's settings and presses, events, players,
 * tables, table matches, sponsors — answers `503 store-unavailable` naming out-of-memory (Redis refused:
 * nothing was written), `/healthz` answers 503 with the cause, reads keep answering, and once memory is free
 * again the same writes go through. The machine's shared Redis is never touched.
 */
import { createClient } from 'redis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningServer } from '../../server/app';
import { createEvent, EVENT, type CreatedEvent } from '../helpers/events';
import { requireRedisServerBinary, spawnRedis, testPrefix, type PrivateRedis } from '../helpers/redis';
import { api, call, connect, createMatch, legalSteps, request, SETUP, startTestServer, type Client } from '../helpers/server';

const redisBinary = requireRedisServerBinary();
const steps = legalSteps(4);
const PNG = Buffer.from('89504e470d0a1a0a0000000d4948445200000001000000010806000000', 'hex');

/** One write path: its request, sent while Redis is full and again once it is not. */
interface WritePath {
  name: string;
  send: () => Promise<{ status: number; body: any }>;
}

describe.skipIf(!redisBinary)('Redis full (maxmemory, noeviction): every write answers 503 store-unavailable', () => {
  let redis: PrivateRedis;
  let server: RunningServer;
  let admin: ReturnType<typeof createClient>;
  let scorer: Client;
  const prefix = testPrefix('redis-full');
  let m: { id: string; scorerToken: string };
  let ev: CreatedEvent;
  let sponsorId = '';
  let version = 1;

  beforeAll(async () => {
    redis = await spawnRedis(['--maxmemory', '8mb', '--maxmemory-policy', 'noeviction']);
    server = await startTestServer({ redisUrl: redis.url, redisPrefix: prefix });
    admin = createClient({ url: redis.url });
    admin.on('error', () => undefined);
    await admin.connect();
    m = await createMatch(server.url);
    expect(
      (await api(server.url, `/api/matches/${m.id}/steps`, { token: m.scorerToken, body: { stepId: 's0', expectedVersion: 0, step: steps[0] } })).status,
    ).toBe(201);
    expect((await api(server.url, `/api/matches/${m.id}/clock`, { method: 'PUT', token: m.scorerToken, body: { preset: 'pro' } })).status).toBe(200);
    ev = await createEvent(server.url);
    const logo = await fetch(`${server.url}/api/events/${ev.id}/sponsors?name=Chalk&type=image/png`, {
      method: 'POST',
      headers: { 'content-type': 'image/png', authorization: `Bearer ${ev.organiserToken}` },
      body: new Uint8Array(PNG),
    });
    expect(logo.status).toBe(201);
    sponsorId = ((await logo.json()) as { sponsor: { id: string } }).sponsor.id;
    scorer = await connect(server.url, m.scorerToken);
  });
  afterAll(async () => {
    scorer?.close();
    await admin?.close().catch(() => undefined);
    await server?.close();
    await redis?.dispose();
  });

  let fillers = 0;
  /**
   * Fill Redis (keys outside the server's prefix) with 256 KiB values until it refuses one, then lower maxmemory
   * 512 KiB under what is used: memory use moves by a few KiB with the clients' buffers, and no write of the
   * server may slip through such a gap. Deleting the filler later brings the memory back.
   */
  async function fill(): Promise<number> {
    const chunk = 'x'.repeat(256 * 1024);
    for (;;) {
      if (fillers > 200) throw new Error('Redis never refused a write (maxmemory not applied?)');
      try {
        await admin.set(`filler:${fillers++}`, chunk);
      } catch (err) {
        expect((err as Error).message).toMatch(/^OOM /);
        break;
      }
    }
    const used = Number(/used_memory:(\d+)/.exec(await admin.info('memory'))![1]);
    await admin.configSet('maxmemory', String(used - 512 * 1024));
    return used;
  }

  const as = (token: string) => ({ token });
  const paths = (): WritePath[] => [
    { name: 'POST /api/matches', send: () => api(server.url, '/api/matches', { body: SETUP }) },
    {
      name: 'POST /api/matches/:id/steps',
      send: () => api(server.url, `/api/matches/${m.id}/steps`, { ...as(m.scorerToken), body: { stepId: 's1', expectedVersion: version, step: steps[1] } }),
    },
    {
      name: 'Socket.IO record',
      send: async () => {
        const ack = await request(scorer, 'record', { matchId: m.id, stepId: 's2', expectedVersion: version, step: steps[2]! });
        return ack.ok ? { status: 201, body: ack } : { status: 503, body: { error: ack.error } };
      },
    },
    {
      name: 'Socket.IO shotClockAction',
      send: async () => {
        // The shot clock's messages carry no protocol field (request() adds one).
        const ack = await call<{ ok: boolean; error?: unknown }>(scorer, 'shotClockAction', { matchId: m.id, action: 'start' });
        return ack.ok ? { status: 200, body: ack } : { status: 503, body: { error: ack.error } };
      },
    },
    {
      name: 'PUT /api/matches/:id/clock',
      send: () => api(server.url, `/api/matches/${m.id}/clock`, { method: 'PUT', ...as(m.scorerToken), body: { preset: 'league' } }),
    },
    { name: 'POST /api/matches/:id/clock/start', send: () => api(server.url, `/api/matches/${m.id}/clock/start`, { method: 'POST', ...as(m.scorerToken) }) },
    { name: 'POST /api/events', send: () => api(server.url, '/api/events', { body: { ...EVENT, name: 'Saturday Open' } }) },
    {
      name: 'PATCH /api/events/:id',
      send: () => api(server.url, `/api/events/${ev.id}`, { method: 'PATCH', ...as(ev.organiserToken), body: { name: 'Friday League Finals' } }),
    },
    {
      name: 'POST /api/events/:id/players',
      send: () => api(server.url, `/api/events/${ev.id}/players`, { ...as(ev.organiserToken), body: { players: [{ name: 'Eve Ek' }] } }),
    },
    {
      name: 'POST /api/events/:id/tables',
      send: () => api(server.url, `/api/events/${ev.id}/tables`, { ...as(ev.organiserToken), body: { name: 'Table 3' } }),
    },
    {
      name: 'POST /api/events/:id/tables/:table/matches',
      send: () =>
        api(server.url, `/api/events/${ev.id}/tables/table-1/matches`, {
          ...as(ev.organiserToken),
          body: { playerIds: [ev.event.roster[0]!.id, ev.event.roster[1]!.id] },
        }),
    },
    {
      name: 'POST /api/events/:id/sponsors',
      send: async () => {
        const res = await fetch(`${server.url}/api/events/${ev.id}/sponsors?name=Cue&type=image/png`, {
          method: 'POST',
          headers: { 'content-type': 'image/png', authorization: `Bearer ${ev.organiserToken}` },
          body: new Uint8Array(PNG),
        });
        return { status: res.status, body: await res.json() };
      },
    },
    {
      name: 'PATCH /api/events/:id/sponsors/:sponsorId',
      send: () => api(server.url, `/api/events/${ev.id}/sponsors/${sponsorId}`, { method: 'PATCH', ...as(ev.organiserToken), body: { seconds: 12 } }),
    },
  ];

  it('refuses every write with 503 store-unavailable (out-of-memory), keeps reads, and writes again once memory is free', async () => {
    const used = await fill();
    const answers: string[] = [];
    const wrong: string[] = [];
    for (const p of paths()) {
      const res = await p.send();
      answers.push(`${p.name}: ${res.status} ${res.body?.error?.code ?? ''}`);
      const refused = res.status === 503 && res.body?.error?.code === 'store-unavailable' && /out-of-memory/.test(res.body.error.message);
      if (!refused) wrong.push(`${p.name}: ${res.status} ${JSON.stringify(res.body?.error ?? res.body)}`);
    }
    expect(wrong, 'answers that are not 503 store-unavailable (out-of-memory)').toEqual([]);
    expect(await api(server.url, '/healthz')).toMatchObject({ status: 503, body: { ok: false, refusing: { cause: 'out-of-memory' } } });
    // Reads keep answering, and nothing was written: the match is at version 1, the event as it was.
    expect(await api(server.url, `/api/matches/${m.id}`)).toMatchObject({ status: 200, body: { version: 1 } });
    const event = await api(server.url, `/api/events/${ev.id}`);
    expect(event.status).toBe(200);
    expect(event.body.name).toBe('Friday League');
    console.log(`Redis full (started with maxmemory 8 MB, filled to ${(used / 2 ** 20).toFixed(1)} MB): ${answers.join('; ')}`);

    // Memory back: the same writes go through.
    for (let i = 0; i < fillers; i++) await admin.del(`filler:${i}`);
    for (const p of paths()) {
      const res = await p.send();
      expect(res.status, `${p.name}: ${JSON.stringify(res.body)}`).toBeLessThan(300);
      if (p.name.includes('steps') || p.name.includes('record')) version++;
    }
    expect(await api(server.url, '/healthz')).toMatchObject({ status: 200, body: { ok: true, refusing: null } });
    expect((await api(server.url, `/api/matches/${m.id}`)).body.version).toBe(3);
  });
});
