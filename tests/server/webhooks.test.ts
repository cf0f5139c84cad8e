/**
 * Webhooks (issue 27 §6) on a server over the real Redis, against real HTTP receivers (node:http on this
 * machine): a URL that is not http(s) is refused naming `url` and nothing is registered; each delivery is signed
 * (HMAC-SHA256 of the exact body under the hook's secret, `X-Cuecast-Signature: sha256=<hex>`), and a failing
 * receiver gets the same delivery again (back-off) while the hook's status shows the failures in a row, until it
 * answers; a receiver that never answers and one that is not there never slow a record (each record under the
 * 1 s ceiling while deliveries to them hang, checked to be hanging at that moment); the draw's changes and its
 * end are delivered too.
 */
import { createHmac } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningServer } from '../../server/app';
import type { WebhookPayload } from '../../shared/protocol/webhooks';
import { createEvent, recordStep, stepsToWin, tableMatch, type CreatedEvent } from '../helpers/events';
import { dropPrefix, requireRedis, testPrefix } from '../helpers/redis';
import { api, SETUP, startTestServer } from '../helpers/server';

const redis = await requireRedis();

/** What a receiver got: the raw body, its headers, and the payload. */
interface Got {
  raw: string;
  headers: IncomingMessage['headers'];
  payload: WebhookPayload;
}

/** A real HTTP receiver; `answer` decides each request's fate (status, or a promise to wait on first). */
class Receiver {
  readonly got: Got[] = [];
  private server!: Server;
  url = '';
  private waiters: { pred: () => boolean; ok: () => void }[] = [];
  constructor(private answer: (n: number, got: Got, res: ServerResponse) => void) {}
  async start(): Promise<this> {
    this.server = createServer((req, res) => {
      let raw = '';
      req.setEncoding('utf8');
      req.on('data', (c: string) => (raw += c));
      req.on('end', () => {
        const got = { raw, headers: req.headers, payload: JSON.parse(raw) as WebhookPayload };
        this.got.push(got);
        this.answer(this.got.length, got, res);
        this.waiters = this.waiters.filter((w) => (w.pred() ? (w.ok(), false) : true));
      });
    });
    await new Promise<void>((ok) => this.server.listen(0, '127.0.0.1', ok));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/hook`;
    return this;
  }
  /** Resolves once `pred` holds over what was received. */
  until(pred: () => boolean, what: string, timeoutMs = 15_000): Promise<void> {
    if (pred()) return Promise.resolve();
    return new Promise((ok, fail) => {
      const t = setTimeout(() => fail(new Error(`receiver: never ${what}; got ${this.got.map((g) => g.payload.type).join(', ')}`)), timeoutMs);
      this.waiters.push({ pred, ok: () => (clearTimeout(t), ok()) });
    });
  }
  of(type: string): Got[] {
    return this.got.filter((g) => g.payload.type === type);
  }
  async close(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise((ok) => this.server.close(ok));
  }
}

const verify = (secret: string, g: Got) => g.headers['x-cuecast-signature'] === `sha256=${createHmac('sha256', secret).update(g.raw).digest('hex')}`;

describe.skipIf(!redis.available)('webhooks', () => {
  const prefix = testPrefix('webhooks');
  let s: RunningServer;
  const receivers: Receiver[] = [];
  const receiver = async (answer: (n: number, got: Got, res: ServerResponse) => void) => {
    const r = await new Receiver(answer).start();
    receivers.push(r);
    return r;
  };
  const hooks = (ev: CreatedEvent, body?: unknown, token: string | null = ev.organiserToken) =>
    api(s.url, `/api/events/${ev.id}/webhooks`, { ...(body === undefined ? {} : { body }), ...(token ? { token } : {}) });

  beforeAll(async () => {
    // Retries start after 100 ms; a receiver that never answers holds a delivery for 60 s (longer than the test).
    s = await startTestServer({ redisUrl: redis.url, redisPrefix: prefix, webhooks: { retryBaseMs: 100, retryMaxMs: 400, timeoutMs: 60_000, maxAttempts: 6 } });
  });
  afterAll(async () => {
    await s?.close();
    for (const r of receivers) await r.close();
    await dropPrefix(redis.url, prefix);
  });

  it('refuses a URL that is not http(s) naming url, and registers nothing; only the organiser registers or lists', async () => {
    const ev = await createEvent(s.url);
    for (const url of [
      'ftp://example.com/hook',
      'javascript:alert(1)',
      'file:///etc/passwd',
      'not a url',
      'ws://example.com/x',
      'https://user:pw@example.com/',
    ]) {
      const res = await hooks(ev, { url });
      expect(res.status, url).toBe(400);
      expect(res.body.error, url).toMatchObject({ code: 'invalid-webhook', field: 'url' });
    }
    expect((await hooks(ev, {})).body.error).toMatchObject({ code: 'invalid-webhook', field: 'url' });
    expect((await hooks(ev, { url: 'https://example.com', colour: 1 })).body.error).toMatchObject({ field: 'colour' });
    expect((await hooks(ev, { url: 'https://example.com/x' }, null)).status).toBe(401);
    expect((await hooks(ev, { url: 'https://example.com/x' }, 'wrong')).status).toBe(403);
    expect((await hooks(ev, undefined, 'wrong')).status).toBe(403);
    expect((await hooks(ev)).body).toEqual({ webhooks: [] });
  });

  it('signs each delivery; a failing receiver gets the same delivery again with back-off, and the status shows the failures until it answers', async () => {
    let release!: () => void;
    const held = new Promise<void>((ok) => (release = ok));
    // 500, 500, then the third try waits for the test (which reads the status meanwhile), then 200.
    const r = await receiver((n, _g, res) => {
      if (n <= 2) return void res.writeHead(500).end('nope');
      void held.then(() => res.writeHead(204).end());
    });
    const ev = await createEvent(s.url);
    const made = await hooks(ev, { url: r.url });
    expect(made.status).toBe(201);
    const { secret, webhook } = made.body;
    expect(secret).toMatch(/^whsec_/);
    expect(webhook).toMatchObject({ url: r.url, status: { consecutiveFailures: 0, lastSuccess: null } });
    expect((await hooks(ev)).body.webhooks[0]).not.toHaveProperty('secret');

    const m = await tableMatch(s.url, ev, ev.event.tables[0]!.id, [ev.event.roster[0]!.id, ev.event.roster[1]!.id], true);
    await r.until(() => r.got.length >= 3, 'got the third try');
    const status = (await hooks(ev)).body.webhooks[0].status;
    expect(status).toMatchObject({ consecutiveFailures: 2, lastError: 'HTTP 500', lastSuccess: null });
    release();
    await expect.poll(async () => (await hooks(ev)).body.webhooks[0].status.consecutiveFailures, { timeout: 10_000 }).toBe(0);
    expect((await hooks(ev)).body.webhooks[0].status.lastSuccess).toBeGreaterThan(0);

    const tries = r.of('match.started');
    expect(tries).toHaveLength(3);
    expect(new Set(tries.map((g) => g.payload.id)).size).toBe(1); // one delivery, tried three times
    expect(new Set(tries.map((g) => g.headers['x-cuecast-delivery']))).toEqual(new Set([tries[0]!.payload.id]));
    for (const g of tries) {
      expect(verify(secret, g)).toBe(true);
      expect(verify('whsec_other', g)).toBe(false);
      expect(g.headers['content-type']).toBe('application/json');
      expect(g.headers['x-cuecast-event']).toBe('match.started');
    }
    expect(tries[0]!.payload).toMatchObject({ type: 'match.started', eventId: ev.id, data: { matchId: m.id, table: ev.event.tables[0]!.id } });

    // The match is won: match.finished, signed, with the score.
    for (const step of stepsToWin({ ...SETUP, players: ['A', 'B'], targets: [3, 3] })) await recordStep(s.url, m, step);
    await r.until(() => r.of('match.finished').length >= 1, 'got match.finished');
    const fin = r.of('match.finished')[0]!;
    expect(verify(secret, fin)).toBe(true);
    expect(fin.payload.data).toMatchObject({ matchId: m.id, score: [3, 0], winner: 'Ann Andersen' });
  });

  it('a receiver that never answers and one that is not there never slow a record', async () => {
    const hanging = await receiver(() => undefined); // never answers
    const gone = await receiver((_n, _g, res) => void res.writeHead(204).end());
    const goneUrl = gone.url;
    await gone.close();
    receivers.splice(receivers.indexOf(gone), 1);
    const ev = await createEvent(s.url);
    expect((await hooks(ev, { url: hanging.url })).status).toBe(201);
    expect((await hooks(ev, { url: goneUrl })).status).toBe(201);

    // Baseline: the same steps on a match of no event (no webhook).
    const timed = async (match: { id: string; scorerToken: string }, steps: ReturnType<typeof stepsToWin>) => {
      const ms: number[] = [];
      for (const step of steps) {
        const t0 = performance.now();
        await recordStep(s.url, match, step);
        ms.push(performance.now() - t0);
      }
      return ms;
    };
    const setup = { ...SETUP, players: ['Ann Andersen', 'Bob Brown'], targets: [3, 3] };
    const steps = stepsToWin(setup);
    const lone = (await api(s.url, '/api/matches', { body: setup })).body;
    const baseline = await timed({ id: lone.id, scorerToken: lone.scorerToken }, steps);

    const m = await tableMatch(s.url, ev, ev.event.tables[0]!.id, [ev.event.roster[0]!.id, ev.event.roster[1]!.id], true);
    // The delivery of the start is hanging at the receiver, and the other hook has failed at least once, before the first record.
    await hanging.until(() => hanging.of('match.started').length === 1, 'got match.started');
    await expect.poll(async () => (await hooks(ev)).body.webhooks[1].status.consecutiveFailures, { timeout: 10_000 }).toBeGreaterThan(0);
    const withHooks = await timed(m, steps);
    // Still hanging after the records: the deliveries were in flight the whole time.
    expect(hanging.got).toHaveLength(1);
    const status = (await hooks(ev)).body.webhooks;
    expect(status[1].status.lastError).toMatch(/ECONNREFUSED/);
    expect(status[0].status).toMatchObject({ lastSuccess: null, consecutiveFailures: 0 });
    console.log(`record latency, ms (max): no hook ${Math.max(...baseline).toFixed(1)}, hanging and dead hooks ${Math.max(...withHooks).toFixed(1)}`);
    for (const ms of withHooks) expect(ms).toBeLessThan(1000);
  });

  it('delivers draw.changed and, once the draw is decided, event.finished', async () => {
    const r = await receiver((_n, _g, res) => void res.writeHead(200).end('ok'));
    const ev = await createEvent(s.url);
    const { secret } = (await hooks(ev, { url: r.url })).body;
    const [p1, p2] = ev.event.roster.map((p) => p.id);
    const made = await api(s.url, `/api/events/${ev.id}/draw`, { token: ev.organiserToken, body: { format: 'single', players: [p1, p2], seeding: 'order' } });
    expect(made.status).toBe(201);
    const won = await api(s.url, `/api/events/${ev.id}/draw/results`, {
      token: ev.organiserToken,
      body: { match: made.body.draw.draw.ready[0], winner: p2, kind: 'walkover' },
    });
    expect(won.status).toBe(200);
    await r.until(() => r.of('event.finished').length === 1, 'got event.finished');
    const changed = r.of('draw.changed');
    expect(changed.length).toBeGreaterThanOrEqual(2); // made, then the walkover
    const last = changed.at(-1)!.payload.data as { delta: { champion: string } };
    expect(last.delta.champion).toBe(p2);
    const end = r.of('event.finished')[0]!;
    expect(verify(secret, end)).toBe(true);
    expect(end.payload.data).toMatchObject({ champion: { id: p2, name: 'Bob Brown' }, results: `/api/events/${ev.id}/results.json` });
  });
});
