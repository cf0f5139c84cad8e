/**
 * Embedded mode, a full disk on every write path (issue 30): DATA_DIR on a 2 MB tmpfs, filled to the last byte
 * before each write. Steps, clock presses, events, event changes, tables, sponsors and draws each answer
 * `503 store-unavailable` (never `500 internal`), nothing of it is stored, and each goes through once the space
 * is back. Mounting a tmpfs needs root (CI runs as root): otherwise the suite skips, saying so (CI=true fails).
 */
import { fillDisk as fillDiskAs } from '../helpers/disk';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningServer } from '../../server/app';
import { createEvent, EVENT, type CreatedEvent } from '../helpers/events';
import { api, createMatch, LONG_SETUP, plausibleSteps, startTestServer } from '../helpers/server';

const CI = process.env.CI === 'true';
const steps = plausibleSteps(400, LONG_SETUP, { seed: 31, undoRate: 0 });
const SVG = '<svg xmlns="http://www.w3.org/2000/svg" width="4" height="4"><rect width="4" height="4"/></svg>';

let fillers = 0;
/** Fill the file system of `dir` to its last byte with a new file; returns its path. */
const fillDisk = (dir: string): string => fillDiskAs(dir, `filler-${fillers++}`);

describe('embedded mode: every write path under a full disk (a 2 MB tmpfs)', () => {
  let dir = '';
  let server: RunningServer | undefined;
  let skipped = '';
  beforeAll(() => {
    const d = mkdtempSync(join(tmpdir(), 'cuecast-full-paths-'));
    try {
      execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=2m', 'tmpfs', d], { stdio: 'pipe' });
      dir = d;
    } catch (err) {
      rmdirSync(d);
      const reason = (err as Error).message.split('\n')[0]!;
      if (CI) throw new Error(`the full-disk test needs a tmpfs for DATA_DIR (run as root): ${reason}`, { cause: err });
      skipped = reason;
      console.warn(`[full-disk-paths] skipped: could not mount a tmpfs for DATA_DIR (needs root): ${reason}`);
    }
  });
  afterAll(async () => {
    await server?.close();
    if (!dir) return;
    try {
      execFileSync('umount', [dir]);
      rmdirSync(dir);
    } catch {
      // left for the OS temp cleaner
    }
  });

  it('answers 503 store-unavailable on each, stores nothing, and each goes through once space is back', async (ctx) => {
    if (skipped) return ctx.skip();
    server = await startTestServer({ dataDir: dir });
    const url = server.url;
    const m = await createMatch(url, LONG_SETUP);
    expect(await api(url, `/api/matches/${m.id}/clock`, { method: 'PUT', token: m.scorerToken, body: { preset: 'pro' } })).toMatchObject({ status: 200 });
    const ev: CreatedEvent = await createEvent(url);
    const org = { token: ev.organiserToken };
    let next = 0;
    const record = () => api(url, `/api/matches/${m.id}/steps`, { method: 'POST', token: m.scorerToken, body: { stepId: `s${next}`, step: steps[next] } });
    const upload = async () => {
      const headers = { authorization: `Bearer ${ev.organiserToken}`, 'content-type': 'image/svg+xml' };
      const r = await fetch(`${url}/api/events/${ev.id}/sponsors?name=Chalk`, { method: 'POST', headers, body: SVG });
      return { status: r.status, body: await r.json() };
    };
    const writes: { name: string; send: () => Promise<{ status: number; body: any }>; ok: number }[] = [
      { name: 'record a step', send: record, ok: 201 },
      { name: 'clock press', send: () => api(url, `/api/matches/${m.id}/clock/start`, { method: 'POST', token: m.scorerToken }), ok: 200 },
      { name: 'create an event', send: () => api(url, '/api/events', { body: { ...EVENT, name: 'Saturday Cup' } }), ok: 201 },
      { name: 'change an event', send: () => api(url, `/api/events/${ev.id}`, { method: 'PATCH', ...org, body: { name: 'Friday League II' } }), ok: 200 },
      { name: 'add a table', send: () => api(url, `/api/events/${ev.id}/tables`, { ...org, body: { name: 'Table 3' } }), ok: 201 },
      { name: 'upload a sponsor', send: upload, ok: 201 },
      {
        name: 'make a draw',
        send: () => api(url, `/api/events/${ev.id}/draw`, { ...org, body: { format: 'single', seeding: 'random', races: { default: 5 } } }),
        ok: 201,
      },
    ];

    // The break is recorded first: the clock does not run for a break (D-32a).
    expect(await record()).toMatchObject({ status: 201 });
    next++;
    // Steps first, until one is refused: the WAL may hold room for a few pages when the disk fills.
    const filled = [fillDisk(dir)];
    let first = await record();
    for (let i = 0; first.status === 201 && i < 300; i++) {
      next++;
      first = await record();
    }
    expect(first, 'record a step').toMatchObject({ status: 503, body: { error: { code: 'store-unavailable' } } });
    const version = (await api(url, `/api/matches/${m.id}`)).body.version;
    expect(version).toBe(next);
    const before = {
      clock: (await api(url, `/api/matches/${m.id}/clock`)).body,
      events: (await api(url, '/api/events')).body.events.length,
      event: (await api(url, `/api/events/${ev.id}`)).body,
    };
    for (const w of writes.slice(1)) {
      filled.push(fillDisk(dir)); // What a refused write or a checkpoint freed is taken again.
      const res = await w.send();
      expect(res, w.name).toMatchObject({ status: 503, body: { error: { code: 'store-unavailable' } } });
      expect(res.body.error.message, w.name).toMatch(/disk-full|io-error/);
    }
    const health = await api(url, '/healthz');
    expect(health.body.refusing).toMatchObject({ cause: expect.stringMatching(/disk-full|io-error/) });

    // Nothing was stored.
    expect((await api(url, `/api/matches/${m.id}`)).body.version).toBe(version);
    expect((await api(url, `/api/matches/${m.id}/clock`)).body).toEqual(before.clock);
    expect((await api(url, '/api/events')).body.events).toHaveLength(before.events);
    const event = (await api(url, `/api/events/${ev.id}`)).body;
    expect(event.event?.name ?? event.name).toBe(before.event.event?.name ?? before.event.name);
    expect(JSON.stringify(event)).toBe(JSON.stringify(before.event));
    expect((await api(url, `/api/events/${ev.id}/draw`)).status).toBe(404);

    // Space is back: every write goes through.
    for (const f of filled) rmSync(f);
    for (const w of writes) expect(await w.send(), w.name).toMatchObject({ status: w.ok });
    expect((await api(url, `/api/matches/${m.id}`)).body.version).toBe(version + 1);
    expect((await api(url, '/healthz')).body.refusing).toBeNull();
  });
});
