/**
 * Connection and creation limits over real sockets (embedded mode): websockets per client address and per
 * instance (refused at the handshake with `connect_error` data `{code, message}`), the Origin rule of the
 * websocket handshake (the same as REST CORS: same origin, CORS_ORIGIN, or no Origin = not a browser),
 * the client address and host behind a trusted proxy, and matches and events created per address per hour
 * (REST 429; every creating path counts against one budget).
 */
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { io } from 'socket.io-client';
import type { ApiError } from '../../shared/protocol/errors';
import { PROTOCOL_VERSION } from '../../shared/protocol/wire';
import { OriginPolicy } from '../../server/transport/connection-limits';
import { createClient } from '../../web/src/lib/client';
import { EVENT, type CreatedEvent } from '../helpers/events';
import { api, call, createMatch, request as ask, REPO_ROOT, SETUP, startTestServer, type Client } from '../helpers/server';
import type { RunningServer } from '../../server/app';
import type { ServerOptions } from '../../server/backends';

const dirs: string[] = [];
const tempDir = () => {
  const d = mkdtempSync(join(tmpdir(), 'cuecast-limits-'));
  dirs.push(d);
  return d;
};
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

// Every socket and server a test opens is closed after it, whatever happened.
const sockets: { close(): unknown }[] = [];
const servers: RunningServer[] = [];
afterEach(async () => {
  for (const c of sockets.splice(0)) c.close();
  await Promise.all(servers.splice(0).map((s) => s.close()));
});
/** A test server (embedded mode, test limits, its own data directory) stopped after the test. */
async function server(opts: ServerOptions = {}): Promise<string> {
  const s = await startTestServer({ dataDir: tempDir(), ...opts });
  servers.push(s);
  return s.url;
}

type Attempt = { ok: true; socket: Client } | { ok: false; error: ApiError; message: string; active: boolean };

/** Open a websocket-only client with these handshake headers; resolves with the socket or the refusal. */
function attempt(url: string, headers: Record<string, string> = {}): Promise<Attempt> {
  const socket: Client = io(url, { transports: ['websocket'], forceNew: true, extraHeaders: headers, reconnectionDelay: 100 });
  sockets.push(socket);
  return new Promise((resolve) => {
    socket.once('connect', () => resolve({ ok: true, socket }));
    socket.once('connect_error', (err: Error & { data?: ApiError }) => {
      // A refusal at the handshake does not reconnect by itself: `active` is false right after it.
      const active = socket.active;
      socket.close();
      resolve({ ok: false, error: err.data!, message: err.message, active });
    });
  });
}

async function accepted(url: string, headers: Record<string, string> = {}): Promise<Client> {
  const a = await attempt(url, headers);
  if (!a.ok) throw new Error(`refused: ${a.error?.code} ${a.message}`);
  return a.socket;
}

/** Retry `attempt` until it is accepted (the server notices a closed socket asynchronously); at most 5 s. */
async function acceptedSoon(url: string, headers: Record<string, string> = {}): Promise<Client> {
  const deadline = Date.now() + 5000;
  for (;;) {
    const a = await attempt(url, headers);
    if (a.ok) return a.socket;
    if (Date.now() > deadline) throw new Error(`still refused after 5 s: ${a.error.code}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe('websockets per address and in total', () => {
  it('refuses the N+1th websocket from one address with too-many-connections, and takes one again once one closes', async () => {
    const url = await server({ limits: { socketsPerAddress: 3 } });
    const open = [await accepted(url), await accepted(url), await accepted(url)];
    const refused = await attempt(url);
    expect(refused).toMatchObject({ ok: false, active: false, error: { code: 'too-many-connections' } });
    if (refused.ok) return;
    expect(refused.error.message).toMatch(/3 websockets are already open from 127\.0\.0\.1/);
    expect(refused.message).toBe(refused.error.message);
    // Refused attempts never count: after one more refusal and one close, exactly one place is free.
    expect(await attempt(url)).toMatchObject({ ok: false, error: { code: 'too-many-connections' } });
    open.shift()!.close();
    open.push(await acceptedSoon(url));
    expect(await attempt(url)).toMatchObject({ ok: false, error: { code: 'too-many-connections' } });
    // The accepted ones work.
    const m = await createMatch(url);
    for (const c of open) expect(await ask(c, 'subscribe', { matchId: m.id })).toMatchObject({ ok: true, version: 0 });
  });

  it('behind a trusted proxy counts each forwarded address (X-Forwarded-For); without one, the header is ignored', async () => {
    const proxied = await server({ trustProxy: 'loopback', limits: { socketsPerAddress: 2 } });
    const direct = await server({ limits: { socketsPerAddress: 2 } });
    const from = (ip: string) => ({ 'x-forwarded-for': ip });
    await accepted(proxied, from('203.0.113.1'));
    await accepted(proxied, from('203.0.113.1'));
    const refused = await attempt(proxied, from('203.0.113.1'));
    expect(refused).toMatchObject({ ok: false, error: { code: 'too-many-connections' } });
    expect(!refused.ok && refused.error.message).toContain('203.0.113.1');
    await accepted(proxied, from('203.0.113.2'));
    await accepted(proxied, from('203.0.113.2'));
    // IPv6 clients are counted per /56, like the REST rate limit: another address in the same /56 is the same client.
    await accepted(proxied, from('2001:db8:0:1::1'));
    await accepted(proxied, from('2001:db8:0:1::2'));
    expect(await attempt(proxied, from('2001:db8:0:2::3'))).toMatchObject({ ok: false, error: { code: 'too-many-connections' } });
    expect(await attempt(proxied, from('2001:db8:1:0::3'))).toMatchObject({ ok: true });

    await accepted(direct, from('203.0.113.1'));
    await accepted(direct, from('203.0.113.2'));
    const spoofed = await attempt(direct, from('203.0.113.3'));
    expect(spoofed).toMatchObject({ ok: false, error: { code: 'too-many-connections' } });
    expect(!spoofed.ok && spoofed.error.message).toContain('127.0.0.1');
  });

  it('refuses a websocket over the instance total with server-full, whatever the address', async () => {
    const url = await server({ trustProxy: 'loopback', limits: { socketsPerAddress: 10, maxSockets: 3 } });
    const open: Client[] = [];
    for (let i = 1; i <= 3; i++) open.push(await accepted(url, { 'x-forwarded-for': `198.51.100.${i}` }));
    const refused = await attempt(url, { 'x-forwarded-for': '198.51.100.9' });
    expect(refused).toMatchObject({ ok: false, active: false, error: { code: 'server-full' } });
    expect(!refused.ok && refused.error.message).toMatch(/3 websockets open; retry later/);
    open[0]!.close();
    await acceptedSoon(url, { 'x-forwarded-for': '198.51.100.9' });
  });
});

/**
 * A bare websocket handshake on Socket.IO's path (no Socket.IO client, nothing sent after the upgrade):
 * resolves with the text frames the server sent once it sends a close frame (at most 5 s; `closed` false then).
 */
function bareHandshake(url: string, headers: Record<string, string>): Promise<{ frames: string[]; closed: boolean }> {
  return new Promise((resolve, reject) => {
    const req = request(`${url}/socket.io/?EIO=4&transport=websocket`, {
      headers: {
        connection: 'Upgrade',
        upgrade: 'websocket',
        'sec-websocket-version': '13',
        'sec-websocket-key': randomBytes(16).toString('base64'),
        ...headers,
      },
    });
    req.on('error', reject);
    req.on('response', (res) => reject(new Error(`no upgrade: HTTP ${res.statusCode}`)));
    req.on('upgrade', (_res, socket, head: Buffer) => {
      let buf = Buffer.alloc(0);
      const frames: string[] = [];
      const done = (closed: boolean) => {
        clearTimeout(timer);
        socket.destroy();
        resolve({ frames, closed });
      };
      const timer = setTimeout(() => done(false), 5000);
      const onData = (d: Buffer) => {
        buf = Buffer.concat([buf, d]);
        // Server frames are unmasked; these are small (7- or 16-bit lengths).
        while (buf.length >= 2) {
          let len = buf[1]! & 0x7f;
          let at = 2;
          if (len === 126) [len, at] = [buf.readUInt16BE(2), 4];
          if (buf.length < at + len) break;
          const opcode = buf[0]! & 0x0f;
          if (opcode === 1) frames.push(buf.subarray(at, at + len).toString());
          buf = buf.subarray(at + len);
          if (opcode === 8) return done(true);
        }
      };
      // What came with the 101 answer is in `head`.
      onData(head);
      socket.on('data', onData);
      socket.on('close', () => done(false));
    });
    req.end();
  });
}

describe('Origin of the websocket handshake (the REST CORS rule)', () => {
  it('closes a refused connection itself, right after the CONNECT_ERROR, even if the client never sends CONNECT', async () => {
    const { frames, closed } = await bareHandshake(await server(), { origin: 'https://evil.example' });
    expect(closed).toBe(true); // the websocket close frame
    expect(frames[0]).toMatch(/^0\{"sid"/); // engine.io open
    expect(frames[1]!.startsWith('44')).toBe(true); // message + Socket.IO CONNECT_ERROR
    expect(JSON.parse(frames[1]!.slice(2))).toMatchObject({ data: { code: 'origin-not-allowed' } });
  });

  it('without CORS_ORIGIN: same origin and no Origin are accepted, any other origin (and null) is refused', async () => {
    const url = await server();
    const port = new URL(url).port;
    await accepted(url, { origin: url });
    await accepted(url, { origin: `http://127.0.0.1:${port}` });
    await accepted(url, { origin: `https://127.0.0.1:${port}` }); // TLS ended in front: same host and port
    await accepted(url); // no Origin: not a browser (a script, the demo, Companion)
    for (const origin of ['https://evil.example', `http://localhost:${port}`, 'http://127.0.0.1:1', 'null', 'not a url']) {
      const refused = await attempt(url, { origin });
      expect(refused, origin).toMatchObject({ ok: false, active: false, error: { code: 'origin-not-allowed', field: 'origin' } });
      expect(!refused.ok && refused.error.message).toContain(`origin ${origin} may not open a websocket`);
    }
    // The REST API answers the same foreign origin without CORS headers (the browser then hides the answer).
    const r = await fetch(`${url}/api/matches`, { headers: { origin: 'https://evil.example' } });
    expect(r.headers.get('access-control-allow-origin')).toBeNull();
  });

  it('with CORS_ORIGIN: the listed origins and the own origin are accepted, others refused; REST answers the listed ones', async () => {
    const url = await server({ corsOrigin: ['https://studio.example', 'http://obs.lan:8080/'] });
    await accepted(url, { origin: 'https://studio.example' });
    await accepted(url, { origin: 'http://OBS.lan:8080' });
    await accepted(url, { origin: url });
    for (const origin of ['https://evil.example', 'http://studio.example', 'https://studio.example:8443']) {
      expect(await attempt(url, { origin }), origin).toMatchObject({ ok: false, error: { code: 'origin-not-allowed' } });
    }
    const listed = await fetch(`${url}/api/matches`, { headers: { origin: 'http://obs.lan:8080' } });
    expect(listed.headers.get('access-control-allow-origin')).toBe('http://obs.lan:8080');
    const foreign = await fetch(`${url}/api/matches`, { headers: { origin: 'https://evil.example' } });
    expect(foreign.headers.get('access-control-allow-origin')).toBeNull();
  });

  it('behind a trusted proxy, the own origin is the forwarded host (X-Forwarded-Host), as for REST', async () => {
    const headers = { origin: 'https://scores.example', 'x-forwarded-host': 'scores.example', 'x-forwarded-proto': 'https' };
    await accepted(await server({ trustProxy: 'loopback' }), headers);
    expect(await attempt(await server(), headers)).toMatchObject({ ok: false, error: { code: 'origin-not-allowed' } });
  });

  it('OriginPolicy: normalises the listed origins, takes * for any, refuses entries that are not origins', () => {
    const p = new OriginPolicy(['https://Studio.example/', 'http://obs.lan:80']);
    expect(p.configured).toBe(true);
    expect(p.listed('https://studio.example')).toBe(true);
    expect(p.listed('http://obs.lan')).toBe(true);
    expect(p.listed('https://studio.example.evil')).toBe(false);
    expect(p.listed(undefined)).toBe(false);
    expect(p.allowsHandshake('https://evil.example', 'cue.example')).toBe(false);
    expect(p.allowsHandshake('http://cue.example', 'cue.example:80')).toBe(true);
    expect(p.allowsHandshake(undefined, undefined)).toBe(true);
    const any = new OriginPolicy('*');
    expect(any.allowsHandshake('https://anyone.example', 'cue.example')).toBe(true);
    expect(any.allowsHandshake('null', 'cue.example')).toBe(true);
    expect(new OriginPolicy(undefined).configured).toBe(false);
    expect(() => new OriginPolicy(['studio.example'])).toThrow(/CORS_ORIGIN: "studio.example" is not an origin/);
    expect(() => new OriginPolicy(['https://studio.example/path'])).toThrow(/no path/);
  });
});

describe("the pages' live client (web/src/lib/client.ts) when refused", () => {
  it('connects again by itself after too-many-connections once a place is free (socket.io alone would not)', async () => {
    const url = await server({ limits: { socketsPerAddress: 1 } });
    const blocker = await accepted(url);
    const page = createClient({ url, retryRefusedMs: () => 300 });
    sockets.push(page);
    const m = await createMatch(url);
    const feeds: number[] = [];
    page.watch(m.id, (f) => feeds.push(f.version));
    const soon = async (done: () => boolean) => {
      const deadline = Date.now() + 5000;
      while (!done() && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    };
    await soon(() => page.status === 'offline');
    expect(page.status).toBe('offline');
    // Still refused at the next tries while the other socket stays open.
    await new Promise((r) => setTimeout(r, 700));
    expect(page.status).toBe('offline');
    expect(feeds).toEqual([]);
    blocker.close();
    await soon(() => feeds.length > 0);
    expect(page.status).toBe('live');
    expect(feeds).toEqual([0]);
  });
});

describe('matches created per address per hour', () => {
  it('refuses the N+1th creation from one address with 429 rate-limited; failed attempts and other addresses do not count', async () => {
    const url = await server({ trustProxy: 'loopback', limits: { matchesPerHour: 2 } });
    const create = (ip: string, body: unknown = SETUP) =>
      fetch(`${url}/api/matches`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-forwarded-for': ip }, body: JSON.stringify(body) });
    expect((await create('203.0.113.7', { discipline: 'snooker' })).status).toBe(400);
    expect((await create('203.0.113.7')).status).toBe(201);
    expect((await create('203.0.113.7')).status).toBe(201);
    const refused = await create('203.0.113.7');
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    const body = (await refused.json()) as { error: ApiError };
    expect(body.error).toEqual({ code: 'rate-limited', message: 'over 2 matches and events created per hour from this address; retry later (Retry-After)' });
    expect((await create('203.0.113.8')).status).toBe(201);
    // Reading is not creating.
    expect((await api(url, '/api/matches')).status).toBe(200);
  });

  it('counts events and the matches made for an event table against the same budget as POST /api/matches', async () => {
    const url = await server({ trustProxy: 'loopback', limits: { matchesPerHour: 3 } });
    const post = (ip: string, path: string, body: unknown, token?: string) =>
      fetch(`${url}${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-forwarded-for': ip, ...(token ? { authorization: `Bearer ${token}` } : {}) },
        body: JSON.stringify(body),
      });
    const ip = '203.0.113.9';
    const made = await post(ip, '/api/events', EVENT);
    expect(made.status).toBe(201);
    const ev = (await made.json()) as CreatedEvent;
    const tableMatch = (from: string, token?: string) =>
      post(from, `/api/events/${ev.id}/tables/${ev.event.tables[0]!.id}/matches`, { playerIds: [ev.event.roster[0]!.id, ev.event.roster[1]!.id] }, token);
    // A refused one (no organiser token) does not count.
    expect((await tableMatch(ip)).status).toBe(401);
    expect((await tableMatch(ip, ev.organiserToken)).status).toBe(201);
    expect((await post(ip, '/api/matches', SETUP)).status).toBe(201);
    // Three created (an event, a table match, a match): every creating path is refused now.
    const refused = await tableMatch(ip, ev.organiserToken);
    expect(refused.status).toBe(429);
    expect(((await refused.json()) as { error: ApiError }).error.code).toBe('rate-limited');
    expect((await post(ip, '/api/events', EVENT)).status).toBe(429);
    expect((await post(ip, '/api/matches', SETUP)).status).toBe(429);
    // Another address has its own budget.
    expect((await tableMatch('203.0.113.10', ev.organiserToken)).status).toBe(201);
  });
});

describe('subscriptions per connection, counted after their reads', () => {
  /** Emit every request at once (one burst) and collect the answers in order. */
  const burst = (socket: Client, reqs: unknown[]) =>
    Promise.all(reqs.map((req) => new Promise<{ ok: boolean; error?: ApiError }>((resolve) => socket.emit('subscribe', req as never, resolve as never))));
  const sub = (matchId: string) => ({ protocol: PROTOCOL_VERSION, matchId, detail: 'scorebug' });

  it('a subscription that finds nothing never crowds out one that does, however the burst is ordered', async () => {
    const url = await server({ limits: { maxSubscriptions: 3 } });
    const ids = await Promise.all([0, 1, 2].map(async () => (await createMatch(url)).id));
    const socket = await accepted(url);
    const answers = await burst(socket, [...['x1', 'x2', 'x3', 'x4', 'x5'].map(sub), ...ids.map(sub)]);
    expect(answers.slice(0, 5).map((a) => a.error?.code)).toEqual(['not-found', 'not-found', 'not-found', 'not-found', 'not-found']);
    expect(answers.slice(5), JSON.stringify(answers)).toMatchObject([{ ok: true }, { ok: true }, { ok: true }]);
  });

  it('a burst over the cap gets exactly the cap; the others are refused once their reads are done, and leave no room behind', async () => {
    const url = await server({ limits: { maxSubscriptions: 3 } });
    const ids = await Promise.all([0, 1, 2, 3, 4].map(async () => (await createMatch(url)).id));
    const socket = await accepted(url);
    const answers = await burst(socket, ids.map(sub));
    expect(answers.filter((a) => a.ok)).toHaveLength(3);
    const refused = answers.filter((a) => !a.ok);
    expect(refused.map((a) => [a.error?.code, a.error?.field])).toEqual([
      ['rate-limited', 'matchId'],
      ['rate-limited', 'matchId'],
    ]);
    const kept = ids.filter((_, i) => answers[i]!.ok);
    const left = ids.filter((_, i) => !answers[i]!.ok);
    // Full: a new one is refused, one it holds is answered again; after leaving one, there is room.
    expect((await call<{ ok: boolean }>(socket, 'subscribe', sub(left[0]!))).ok).toBe(false);
    expect((await call<{ ok: boolean }>(socket, 'subscribe', sub(kept[0]!))).ok).toBe(true);
    socket.emit('unsubscribe', { matchId: kept[0]! });
    expect((await call<{ ok: boolean }>(socket, 'subscribe', sub(left[0]!))).ok).toBe(true);
  });
});

describe('configuration from the environment (server/main.ts)', () => {
  /** Run server/main.ts with `env`; it must exit by itself (a refused configuration) within 25 s. */
  const refusedStart = (env: Record<string, string>) =>
    new Promise<{ code: number | null; out: string }>((resolve, reject) => {
      const proc = spawn(process.execPath, ['--import', 'tsx', 'server/main.ts'], {
        cwd: REPO_ROOT,
        env: { ...process.env, PORT: '0', HOST: '127.0.0.1', DATA_DIR: tempDir(), REDIS_URL: '', REDIS_CLUSTER_URLS: '', ...env },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let out = '';
      proc.stdout.on('data', (d) => (out += d));
      proc.stderr.on('data', (d) => (out += d));
      const timer = setTimeout(() => {
        proc.kill('SIGKILL');
        reject(new Error(`main.ts kept running with ${JSON.stringify(env)}: ${out}`));
      }, 25_000);
      proc.on('exit', (code) => {
        clearTimeout(timer);
        resolve({ code, out });
      });
    });

  it('refuses a bad limit, both Redis modes at once, and a CORS_ORIGIN entry that is not an origin, naming each', async () => {
    // One after the other: each is a Node process with tsx, heavy on a shared 2-core machine.
    expect(await refusedStart({ MAX_SOCKETS_PER_ADDRESS: 'many' })).toMatchObject({
      code: 2,
      out: expect.stringContaining('MAX_SOCKETS_PER_ADDRESS must be a positive integer, got \\"many\\"'),
    });
    expect(await refusedStart({ REDIS_URL: 'redis://127.0.0.1:1', REDIS_CLUSTER_URLS: 'redis://127.0.0.1:2' })).toMatchObject({
      code: 2,
      out: expect.stringContaining('REDIS_URL (one Redis) or REDIS_CLUSTER_URLS (a Redis Cluster), not both'),
    });
    expect(await refusedStart({ CORS_ORIGIN: 'studio.example' })).toMatchObject({
      code: 1,
      out: expect.stringContaining('CORS_ORIGIN: \\"studio.example\\" is not an origin'),
    });
  }, 90_000);
});
