/**
 * HTTP surface and hardening in embedded mode: match creation (admin token), pages from the Vite build
 * (and the message when it is missing), security headers, CORS, rate limits on REST and Socket.IO,
 * websocket-only transport, and a graceful shutdown that still acknowledges the record in flight.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { api, connect, createMatch, legalSteps, request, SETUP, startTestServer, tempDirs } from '../helpers/server';

const tempDir = tempDirs();
const steps = legalSteps(3);

describe('REST and pages', () => {
  it('creates a match (201 with a one-time scorer token and page URLs) and reads it back', async () => {
    const s = await startTestServer({ dataDir: tempDir('data') });
    try {
      const res = await api(s.url, '/api/matches', { body: SETUP });
      expect(res.status).toBe(201);
      const { id, scorerToken, version, state, urls } = res.body;
      expect(id).toMatch(/^[\w-]{12}$/);
      expect(scorerToken).toMatch(/^[\w-]{32}$/);
      expect(version).toBe(0);
      expect(state).toMatchObject({ names: ['Ann', 'Bob'], score: [0, 0], targets: [1000, 1000], turn: 'A' });
      expect(urls).toEqual({
        scorer: `${s.url}/scorer/${id}#token=${scorerToken}`,
        overlay: `${s.url}/overlay/${id}`,
        dashboard: `${s.url}/dashboard/${id}`,
        watch: `${s.url}/watch/${id}`,
      });
      const got = await api(s.url, `/api/matches/${id}`);
      expect(got.body).toMatchObject({ id, version: 0, setup: { discipline: '14-1', players: ['Ann', 'Bob'] }, state });
      expect(JSON.stringify(got.body)).not.toContain(scorerToken);
      expect(await api(s.url, '/api/matches/unknown1')).toMatchObject({ status: 404, body: { error: { code: 'not-found', field: 'matchId' } } });
      expect(await api(s.url, '/api/nothing')).toMatchObject({ status: 404, body: { error: { code: 'not-found' } } });
    } finally {
      await s.close();
    }
  });

  it('needs the admin token to create matches when ADMIN_TOKEN is set', async () => {
    const s = await startTestServer({ dataDir: tempDir('data'), adminToken: 'let-me-in' });
    try {
      expect(await api(s.url, '/api/matches', { body: SETUP })).toMatchObject({ status: 401, body: { error: { code: 'unauthorized' } } });
      expect(await api(s.url, '/api/matches', { body: SETUP, token: 'nope' })).toMatchObject({ status: 403, body: { error: { code: 'forbidden' } } });
      expect((await api(s.url, '/api/matches', { body: SETUP, token: 'let-me-in' })).status).toBe(201);
    } finally {
      await s.close();
    }
  });

  it('serves each page of the build on its route, and says to run `npm run build` when there is none', async () => {
    const dist = tempDir('dist');
    for (const page of ['index', 'scorer', 'overlay', 'dashboard', 'watch']) writeFileSync(join(dist, `${page}.html`), `<!doctype html><title>${page}</title>`);
    mkdirSync(join(dist, 'assets'));
    writeFileSync(join(dist, 'assets', 'app-1234.js'), 'console.log(1)');
    const s = await startTestServer({ dataDir: tempDir('data'), staticDir: dist });
    const bare = await startTestServer({ dataDir: tempDir('data'), staticDir: tempDir('empty') });
    try {
      const routes: [string, string][] = [
        ['/', 'index'],
        ['/scorer/abc', 'scorer'],
        ['/overlay/abc', 'overlay'],
        ['/dashboard/abc', 'dashboard'],
        ['/watch', 'watch'],
        ['/watch/abc', 'watch'],
      ];
      for (const [path, page] of routes) {
        const r = await fetch(s.url + path);
        expect(r.status, path).toBe(200);
        expect(await r.text()).toContain(`<title>${page}</title>`);
      }
      const asset = await fetch(`${s.url}/assets/app-1234.js`);
      expect(asset.status).toBe(200);
      expect(asset.headers.get('cache-control')).toContain('immutable');
      expect((await fetch(`${s.url}/assets/missing.js`)).status).toBe(404);
      const none = await fetch(`${bare.url}/`);
      expect(none.status).toBe(503);
      expect(await none.text()).toContain('npm run build');
    } finally {
      await Promise.all([s.close(), bare.close()]);
    }
  });

  it('serves the pages of two build folders at one root (web/dist, then overlay/dist): pages, assets and files from either', async () => {
    const [web, overlay] = [tempDir('web-dist'), tempDir('overlay-dist')];
    for (const page of ['index', 'scorer']) writeFileSync(join(web, `${page}.html`), `<!doctype html><title>web ${page}</title>`);
    for (const page of ['overlay', 'overlay-table']) writeFileSync(join(overlay, `${page}.html`), `<!doctype html><title>overlay ${page}</title>`);
    for (const [dir, name] of [
      [web, 'scorer-1.js'],
      [overlay, 'overlay-1.js'],
    ]) {
      mkdirSync(join(dir, 'assets'));
      writeFileSync(join(dir, 'assets', name), `// ${name}`);
    }
    writeFileSync(join(web, 'favicon.svg'), '<svg/>');
    const s = await startTestServer({ dataDir: tempDir('data'), staticDir: [web, overlay] });
    try {
      for (const [path, title] of [
        ['/', 'web index'],
        ['/scorer/abc', 'web scorer'],
        ['/overlay/abc', 'overlay overlay'],
        ['/overlay/table/e/1', 'overlay overlay-table'],
      ]) {
        const r = await fetch(s.url + path);
        expect(r.status, path).toBe(200);
        expect(await r.text(), path).toContain(`<title>${title}</title>`);
      }
      for (const name of ['scorer-1.js', 'overlay-1.js']) expect(await (await fetch(`${s.url}/assets/${name}`)).text()).toBe(`// ${name}`);
      expect((await fetch(`${s.url}/favicon.svg`)).status).toBe(200);
      expect((await fetch(`${s.url}/assets/missing.js`)).status).toBe(404);
      // A page whose folder has no build yet says to build, the others still answer.
      expect((await fetch(`${s.url}/dashboard/abc`)).status).toBe(503);
    } finally {
      await s.close();
    }
  });

  it("caching: pages no-cache, the OBS overlays no-store (never an old build), the scorer's service worker no-cache as JavaScript", async () => {
    const dist = tempDir('dist');
    for (const page of ['scorer', 'overlay', 'overlay-table', 'dashboard']) writeFileSync(join(dist, `${page}.html`), `<!doctype html><title>${page}</title>`);
    const s = await startTestServer({ dataDir: tempDir('data'), staticDir: dist });
    try {
      // No worker in this build: the address is an unknown one.
      expect((await fetch(`${s.url}/scorer-sw.js`)).status).toBe(404);
      writeFileSync(join(dist, 'scorer-sw.js'), 'self.skipWaiting();');
      for (const [path, cache] of [
        ['/scorer/abc', 'no-cache'],
        ['/dashboard/abc', 'no-cache'],
        ['/overlay/abc', 'no-store'],
        ['/overlay/table/e/1', 'no-store'],
        ['/scorer-sw.js', 'no-cache'],
      ]) {
        const r = await fetch(s.url + path);
        expect(r.status, path).toBe(200);
        expect(r.headers.get('cache-control'), path).toBe(cache);
      }
      const worker = await fetch(`${s.url}/scorer-sw.js`);
      expect(worker.headers.get('content-type')).toMatch(/^text\/javascript/);
      expect(await worker.text()).toBe('self.skipWaiting();');
    } finally {
      await s.close();
    }
  });

  it('answers a bad page address with a page of its own: no id opens the page (it says what is missing), an unknown path or a malformed %-escape a short 404/400 page without a stack trace', async () => {
    const dist = tempDir('dist');
    for (const page of ['index', 'scorer', 'overlay', 'dashboard', 'watch']) writeFileSync(join(dist, `${page}.html`), `<!doctype html><title>${page}</title>`);
    const s = await startTestServer({ dataDir: tempDir('data'), staticDir: dist });
    try {
      for (const [path, page] of [
        ['/scorer', 'scorer'],
        ['/scorer/', 'scorer'],
        ['/dashboard', 'dashboard'],
        ['/dashboard/', 'dashboard'],
        ['/overlay', 'overlay'],
        ['/overlay/', 'overlay'],
        ['/watch/', 'watch'],
      ]) {
        const r = await fetch(s.url + path);
        expect(r.status, path).toBe(200);
        expect(await r.text(), path).toContain(`<title>${page}</title>`);
      }
      for (const [path, status] of [
        ['/dashboard/%E0', 400],
        ['/scorer/%E0%A4', 400],
        ['/watch/%zz', 400],
        ['/overlay/table/%E0/t', 400],
        ['/flags/%E0.svg', 400],
        ['/nope', 404],
        ['/scorer/a/b/c', 404],
        ['/favicon.png', 404],
      ] as const) {
        const r = await fetch(s.url + path);
        const body = await r.text();
        expect(r.status, path).toBe(status);
        expect(r.headers.get('content-type'), path).toContain('text/html');
        expect(body, path).toContain('href="/"');
        expect(body, path).not.toMatch(/node_modules|at decode|URIError|\/work\/|Cannot GET/);
      }
      // The API keeps its JSON errors, naming the part of the address at fault.
      const bad = await api(s.url, '/api/matches/%E0');
      expect(bad).toMatchObject({ status: 400, body: { error: { code: 'invalid-request', field: 'path' } } });
      expect(bad.body.error.message).not.toMatch(/body/);
    } finally {
      await s.close();
    }
  });

  it('sends security headers; CORS only for the configured origin', async () => {
    const plain = await startTestServer({ dataDir: tempDir('data') });
    const withCors = await startTestServer({ dataDir: tempDir('data'), corsOrigin: 'https://studio.example' });
    try {
      const r = await fetch(`${plain.url}/api/matches`, { headers: { origin: 'https://evil.example' } });
      expect(r.headers.get('content-security-policy')).toContain("default-src 'self'");
      expect(r.headers.get('content-security-policy')).not.toContain('upgrade-insecure-requests');
      expect(r.headers.get('x-content-type-options')).toBe('nosniff');
      expect(r.headers.get('x-powered-by')).toBeNull();
      expect(r.headers.get('access-control-allow-origin')).toBeNull();
      const c = await fetch(`${withCors.url}/api/matches`, { headers: { origin: 'https://studio.example' } });
      expect(c.headers.get('access-control-allow-origin')).toBe('https://studio.example');
    } finally {
      await Promise.all([plain.close(), withCors.close()]);
    }
  });
});

describe('recording over REST and Socket.IO (the service decides: tests/services/event-ids.test.ts)', () => {
  it('answers a new step 201, a retried stepId 200 with duplicate, a reused stepId 409 step-id-reused; Socket.IO acks the same', async () => {
    const s = await startTestServer({ dataDir: tempDir('eventids') });
    const m = await createMatch(s.url);
    const scorer = await connect(s.url, m.scorerToken);
    const path = `/api/matches/${m.id}/steps`;
    try {
      const first = await api(s.url, path, { token: m.scorerToken, body: { stepId: 'button-1', step: steps[0] } });
      expect(first).toMatchObject({ status: 201, body: { version: 1 } });
      const retry = await api(s.url, path, { token: m.scorerToken, body: { stepId: 'button-1', step: steps[0] } });
      expect(retry).toMatchObject({ status: 200, body: { version: 1, duplicate: true } });
      expect(retry.body.state).toEqual(first.body.state);
      const reused = await api(s.url, path, { token: m.scorerToken, body: { stepId: 'button-1', step: steps[1] } });
      expect(reused).toMatchObject({ status: 409, body: { error: { code: 'step-id-reused', field: 'stepId' } } });
      expect(reused.body.duplicate).toBeUndefined();
      expect(await request(scorer, 'record', { matchId: m.id, stepId: 'button-1', step: steps[1] })).toMatchObject({
        ok: false,
        error: { code: 'step-id-reused', field: 'stepId' },
      });
      expect(await request(scorer, 'record', { matchId: m.id, stepId: 'button-1', step: steps[0] })).toMatchObject({ ok: true, version: 1, duplicate: true });
      const log = await api(s.url, path);
      expect(log.body.steps.map((e: { stepId: string }) => e.stepId)).toEqual(['button-1']);
    } finally {
      scorer.close();
      await s.close();
    }
  });
});

describe('limits', () => {
  it('rate-limits REST per client (429 rate-limited)', async () => {
    const s = await startTestServer({ dataDir: tempDir('data'), limits: { requestsPerMinute: 5 } });
    try {
      const statuses: number[] = [];
      for (let i = 0; i < 7; i++) statuses.push((await api(s.url, '/api/matches')).status);
      expect(statuses.slice(0, 5)).toEqual([200, 200, 200, 200, 200]);
      const last = await api(s.url, '/api/matches');
      expect(last).toMatchObject({ status: 429, body: { error: { code: 'rate-limited' } } });
    } finally {
      await s.close();
    }
  });

  it('behind a trusted proxy, limits each forwarded client address separately and builds https URLs', async () => {
    const s = await startTestServer({ dataDir: tempDir('data'), trustProxy: 'loopback', limits: { requestsPerMinute: 3 } });
    try {
      const get = (ip: string) => fetch(`${s.url}/api/matches`, { headers: { 'x-forwarded-for': ip } }).then((r) => r.status);
      const a = [await get('203.0.113.1'), await get('203.0.113.1'), await get('203.0.113.1'), await get('203.0.113.1')];
      expect(a).toEqual([200, 200, 200, 429]);
      expect(await get('203.0.113.2')).toBe(200);
      const created = await fetch(`${s.url}/api/matches`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-forwarded-for': '203.0.113.3', 'x-forwarded-proto': 'https', 'x-forwarded-host': 'cue.example' },
        body: JSON.stringify(SETUP),
      });
      expect(created.status).toBe(201);
      const body = (await created.json()) as { id: string; urls: { overlay: string } };
      expect(body.urls.overlay).toBe(`https://cue.example/overlay/${body.id}`);
    } finally {
      await s.close();
    }
  });

  it('rate-limits each Socket.IO connection, not its neighbours', async () => {
    const s = await startTestServer({ dataDir: tempDir('data'), limits: { messagesPerSecond: 5, burst: 10 } });
    try {
      const m = await createMatch(s.url);
      const noisy = await connect(s.url);
      const quiet = await connect(s.url);
      const acks = await Promise.all(Array.from({ length: 30 }, () => request(noisy, 'subscribe', { matchId: m.id })));
      const limited = acks.filter((a) => !a.ok && a.error.code === 'rate-limited').length;
      expect(acks.filter((a) => a.ok).length).toBeGreaterThanOrEqual(10);
      expect(limited).toBeGreaterThanOrEqual(15);
      expect(await request(quiet, 'subscribe', { matchId: m.id })).toMatchObject({ ok: true });
      noisy.close();
      quiet.close();
    } finally {
      await s.close();
    }
  });

  it('ignores a record or subscribe emitted without an acknowledgement callback', async () => {
    const s = await startTestServer({ dataDir: tempDir('data') });
    try {
      const m = await createMatch(s.url);
      const scorer = await connect(s.url, m.scorerToken);
      const viewer = await connect(s.url);
      const emitNoAck = (c: typeof scorer, event: string, payload: unknown) => (c as unknown as { emit(e: string, p: unknown): void }).emit(event, payload);
      emitNoAck(scorer, 'record', { matchId: m.id, stepId: 'no-ack', step: steps[0] });
      emitNoAck(viewer, 'subscribe', { matchId: m.id });
      // A record with an ack on the same connection is answered after the ignored one (messages are in order).
      expect(await request(scorer, 'record', { matchId: m.id, stepId: 'acked', step: steps[0] })).toMatchObject({ ok: true, version: 1 });
      const log = await api(s.url, `/api/matches/${m.id}/steps`);
      expect(log.body.steps.map((e: { stepId: string }) => e.stepId)).toEqual(['acked']);
      scorer.close();
      viewer.close();
    } finally {
      await s.close();
    }
  });

  it('speaks websocket only, and drops a connection that sends a frame over the cap', async () => {
    const s = await startTestServer({ dataDir: tempDir('data'), limits: { maxFrameBytes: 10_000 } });
    try {
      const polling = await fetch(`${s.url}/socket.io/?EIO=4&transport=polling`);
      expect(polling.status).toBe(400);
      const sock = await connect(s.url, undefined, { reconnection: false });
      const gone = new Promise<string>((resolve) => sock.once('disconnect', (reason) => resolve(reason)));
      sock.emit('subscribe', { matchId: 'x'.repeat(20_000) } as never, () => undefined);
      expect(await gone).toBe('transport close');
    } finally {
      await s.close();
    }
  });
});

describe('graceful shutdown', () => {
  it('acknowledges the record in flight before closing, and keeps it', async () => {
    const dataDir = tempDir('data');
    const s = await startTestServer({ dataDir });
    const m = await createMatch(s.url);
    const scorer = await connect(s.url, m.scorerToken, { reconnection: false });
    const pending = request(scorer, 'record', { matchId: m.id, stepId: 'last', expectedVersion: 0, step: steps[0] });
    await new Promise((r) => setTimeout(r, 2)); // the record is on the wire
    const closing = s.close();
    const ack = await pending;
    await closing;
    expect(ack).toMatchObject({ ok: true, version: 1 });
    scorer.close();
    const again = await startTestServer({ dataDir });
    try {
      expect((await api(again.url, `/api/matches/${m.id}`)).body.version).toBe(1);
    } finally {
      await again.close();
    }
  });
});
