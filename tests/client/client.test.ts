/**
 * The typed live client (web/src/lib/client.ts), run in Node:
 * - against a real match server (embedded SQLite store): boot snapshot, pushes in version order, record acks,
 *   refusals, 'offline' rejection, resync after the server restarts on the same port;
 * - against a scripted Socket.IO peer that misbehaves on purpose (duplicate, old and skipping versions, a
 *   push before the subscribe ack), which a healthy server never does, to pin down ordering and resync, and
 *   that speaks another protocol version (its refusals reach the page), and that is busy (a transient refusal
 *   is asked again after a back-off; `retry` asks at once; a protocol mismatch is not asked again by itself).
 * Every request names this build's PROTOCOL_VERSION (the real server refuses any other).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Server } from 'socket.io';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClient, type LiveClient, type MatchFeed } from '../../web/src/lib/client';
import type { RunningServer } from '../../server/app';
import { newMatch, statsOf, view } from '../../shared/index';
import { parseSetup } from '../../server/protocol/setup-schemas';
import type { Step } from '../../shared/protocol/steps';
import { PROTOCOL_VERSION, type ApiError, type MatchStats } from '../../shared/index';
import { api, createMatch, startTestServer } from '../helpers/server';

const SETUP = { discipline: '14-1', ruleset: 'nba', players: ['Ann', 'Bob'], targets: [100, 100] };
const BREAK: Step = { shot: { call: 'safety', breakRails: { objectBalls: 2, cueBall: true } } };
const pot = (b: number): Step => ({ shot: { call: { ball: b }, pocketed: [b] } });

/** Resolve once `pred` holds, polling every 10 ms (test side only). */
async function until(pred: () => boolean, what: string, timeoutMs = 8000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!pred()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

describe('live client against the match server', () => {
  let server: RunningServer;
  let dataDir: string;
  const clients: LiveClient[] = [];
  const open = (token?: string) => {
    const c = createClient({ url: server.url, ...(token ? { token } : {}) });
    clients.push(c);
    return c;
  };

  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'cuecast-client-'));
    server = await startTestServer({ dataDir });
  });
  afterAll(async () => {
    for (const c of clients) c.close();
    await server?.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('boots with the current snapshot, then hands over each recorded step in version order', async () => {
    const m = await createMatch(server.url, SETUP);
    await api(server.url, `/api/matches/${m.id}/steps`, { token: m.scorerToken, body: { stepId: 'c-1', step: BREAK } });
    const viewer = open();
    const feeds: MatchFeed[] = [];
    const statuses: string[] = [];
    viewer.onStatus((s) => statuses.push(s));
    viewer.watch(m.id, (f) => feeds.push(f));
    await until(() => feeds.length === 1, 'boot snapshot');
    expect(feeds[0]!.version).toBe(1);
    expect(feeds[0]!.setup.players).toEqual(['Ann', 'Bob']);
    expect(viewer.status).toBe('live');
    expect(statuses).toContain('live');

    const scorer = open(m.scorerToken);
    await until(() => scorer.status === 'live', 'scorer connected');
    for (let i = 0; i < 5; i++) {
      const ack = await scorer.record({ matchId: m.id, stepId: `c-p${i}`, expectedVersion: 1 + i, step: pot(i + 1) });
      expect(ack.ok).toBe(true);
      if (ack.ok) expect(ack.version).toBe(2 + i);
    }
    await until(() => feeds.at(-1)?.version === 6, 'version 6');
    expect(feeds.map((f) => f.version)).toEqual([1, 2, 3, 4, 5, 6]);
    // Each feed is exactly the engine's state at that version.
    expect(feeds.at(-1)!.state.score).toEqual([0, 5]);
    const m0 = newMatch(parseSetup(SETUP));
    expect(feeds[0]!.state.names).toEqual(view(m0).names);
    expect(feeds.at(-1)!.stats.sheet.length).toBeGreaterThan(statsOf(m0).sheet.length);
    // The statistics the client rebuilt from the pushes' deltas are the server's whole statistics.
    expect(feeds.at(-1)!.stats).toEqual((await api(server.url, `/api/matches/${m.id}`)).body.stats);
  });

  it('returns refusals as acks, rejects with "offline" when not connected, and stops after unsubscribe', async () => {
    const m = await createMatch(server.url, SETUP);
    const viewer = open();
    await until(() => viewer.status === 'live', 'viewer connected');
    const refused = await viewer.record({ matchId: m.id, stepId: 'x-1', step: BREAK });
    expect(refused.ok).toBe(false);
    if (!refused.ok) expect(refused.error.code).toBe('forbidden'); // a viewer may not record

    const scorer = open(m.scorerToken);
    await until(() => scorer.status === 'live', 'scorer connected');
    const stale = await scorer.record({ matchId: m.id, stepId: 'x-2', expectedVersion: 7, step: BREAK });
    expect(stale.ok).toBe(false);
    if (!stale.ok) {
      expect(stale.error.code).toBe('stale');
      expect(stale.currentVersion).toBe(0);
    }
    const bad = await scorer.record({ matchId: m.id, stepId: 'x-3', step: { shot: { call: { ball: 99 } } } as Step });
    expect(bad.ok).toBe(false);
    if (!bad.ok) expect(bad.error.field).toMatch(/^step\.shot\.call/);

    const feeds: number[] = [];
    const stop = viewer.watch(m.id, (f) => feeds.push(f.version));
    await until(() => feeds.length === 1, 'boot');
    stop();
    await scorer.record({ matchId: m.id, stepId: 'x-4', step: BREAK });
    await new Promise((r) => setTimeout(r, 200));
    expect(feeds).toEqual([0]);

    const errors: string[] = [];
    viewer.watch(
      'no-such-match',
      () => {},
      (e) => errors.push(e.code),
    );
    await until(() => errors.length === 1, 'not-found');
    expect(errors).toEqual(['not-found']);

    scorer.close();
    await expect(scorer.record({ matchId: m.id, stepId: 'x-5', step: BREAK })).rejects.toThrow('offline');
  });

  it('reconnect() drops the connection and connects again at once, resyncing subscriptions', async () => {
    const m = await createMatch(server.url, SETUP);
    const scorer = open(m.scorerToken);
    const feeds: number[] = [];
    const statuses: string[] = [];
    scorer.watch(m.id, (f) => feeds.push(f.version));
    await until(() => feeds.length === 1 && scorer.status === 'live', 'boot');
    scorer.onStatus((st) => statuses.push(st));
    scorer.reconnect();
    await until(() => scorer.status === 'live' && statuses.includes('offline'), 'reconnected');
    const ack = await scorer.record({ matchId: m.id, stepId: 'r-1', expectedVersion: 0, step: BREAK });
    expect(ack.ok).toBe(true);
    await until(() => feeds.at(-1) === 1, 'the push after reconnecting');
    expect(statuses[0]).toBe('offline');
  });
});

describe('live client against a misbehaving peer', () => {
  let io: Server;
  let url: string;
  const subscribes: { protocol: number; matchId: string; sinceVersion?: number; detail?: string }[] = [];
  const records: { protocol: number; matchId: string }[] = [];
  const otherBuild: ApiError = { code: 'protocol-mismatch', message: 'this page is from an older version of cuecast: reload the page', field: 'protocol' };
  let client: LiveClient;
  const base = newMatch(parseSetup(SETUP));
  const stats = statsOf(base);
  /** The statistics at version v of this scripted match: the base ones with a version-numbered check (its `scoreChange`). */
  const statsAt = (v: number): MatchStats => ({ ...stats, check: { ...stats.check, scoreChange: v } });
  const snap = (version: number) => ({ matchId: 'm1', version, state: { ...view(base), steps: version }, stats: statsAt(version) });
  /** A push at version v whose statistics delta applies to version `since` (v − 1 when well-behaved). */
  const pushAt = (v: number, since = v - 1) => ({
    matchId: 'm1',
    version: v,
    state: { ...view(base), steps: v },
    step: BREAK,
    stats: {
      since,
      players: [stats.players[0], stats.players[1]].map(({ runs: _r, ...t }) => t),
      sheet: { from: 0, rows: [] },
      racks: { from: 0, rows: [] },
      recent: { before: [], from: 0, to: 0, after: [] },
      check: statsAt(v).check,
    },
  });
  let ackVersion = 3;
  /** Subscribes per match id for the refusing ids, and how many `busy` refuses before it answers. */
  const asked = new Map<string, number>();
  const busyRefusals = 1;

  beforeAll(async () => {
    const http = createServer();
    io = new Server(http, { transports: ['websocket'] });
    io.on('connection', (socket) => {
      socket.on('record', (req: { protocol: number; matchId: string }, ack: (r: unknown) => void) => {
        records.push(req);
        ack({ ok: false, error: otherBuild });
      });
      socket.on('subscribe', (req: { protocol: number; matchId: string; sinceVersion?: number; detail?: 'full' | 'scorebug' }, ack: (r: unknown) => void) => {
        asked.set(req.matchId, (asked.get(req.matchId) ?? 0) + 1);
        if (req.matchId === 'other-build') return ack({ ok: false, error: otherBuild });
        if (req.matchId === 'busy') {
          if (asked.get('busy')! <= busyRefusals)
            return ack({ ok: false, error: { code: 'rate-limited', message: 'too many messages on this connection; slow down' } });
          return ack({ ok: true, detail: 'full', setup: base.setup, ...snap(7), matchId: 'busy' });
        }
        subscribes.push(req);
        socket.join(req.matchId);
        if (subscribes.length === 1) socket.emit('state', pushAt(4)); // a push overtaking the ack
        const { stats: s, ...state } = snap(ackVersion);
        ack(
          req.detail === 'scorebug'
            ? { ok: true, detail: 'scorebug', setup: base.setup, ...state }
            : { ok: true, detail: 'full', setup: base.setup, ...state, stats: s },
        );
      });
    });
    await new Promise<void>((r) => http.listen(0, '127.0.0.1', () => r()));
    url = `http://127.0.0.1:${(http.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    client?.close();
    await io?.close();
  });

  it('applies a statistics delta only to the version just before it; a gap or a delta of another base re-subscribes with sinceVersion', async () => {
    client = createClient({ url });
    const seen: MatchFeed[] = [];
    client.watch('m1', (f) => seen.push(f));
    const versions = () => seen.map((f) => f.version);
    // The ack (3) and the early push (4) arrive: 3 then 4, the push's delta applied to the ack's statistics.
    await until(() => seen.length === 2, 'ack and early push');
    expect(versions()).toEqual([3, 4]);
    expect(seen[1]!.stats.check.scoreChange).toBe(4);
    expect(seen[1]!.stats.players).toEqual(stats.players);
    expect(subscribes).toEqual([{ protocol: PROTOCOL_VERSION, matchId: 'm1', detail: 'full', pages: true }]);

    const push = (p: ReturnType<typeof pushAt>) => io.to('m1').emit('state', p);
    push(pushAt(4)); // duplicate: dropped
    push(pushAt(2)); // older: dropped
    push(pushAt(5)); // next: delivered
    await until(() => seen.length === 3, 'version 5');
    ackVersion = 9;
    push(pushAt(8)); // gap 5 → 8: its delta cannot apply; nothing delivered, a resync asked from 5
    await until(() => subscribes.length === 2, 'resync after the gap');
    expect(subscribes[1]).toEqual({ protocol: PROTOCOL_VERSION, matchId: 'm1', sinceVersion: 5, detail: 'full', pages: true });
    await until(() => seen.at(-1)?.version === 9, 'resync ack 9');
    expect(versions()).toEqual([3, 4, 5, 9]);
    expect(seen.at(-1)!.stats.check.scoreChange).toBe(9);

    ackVersion = 10;
    push(pushAt(10, 8)); // the next version, but its delta is from another base: resync
    await until(() => subscribes.length === 3, 'resync after a delta of another base');
    expect(subscribes[2]).toMatchObject({ sinceVersion: 9 });
    await until(() => seen.at(-1)?.version === 10, 'resync ack 10');

    // Reconnect: the client subscribes again from its last version.
    io.disconnectSockets();
    await until(() => subscribes.length === 4, 'resubscribe after reconnect', 10_000);
    expect(subscribes[3]).toEqual({ protocol: PROTOCOL_VERSION, matchId: 'm1', sinceVersion: 10, detail: 'full', pages: true });
    expect(client.status).toBe('live');
    expect(versions()).toEqual([3, 4, 5, 9, 10]); // the ack at 10 is not newer: not delivered twice
  });

  it('a scorebug watcher asks for no statistics and shows a push that skips versions without resyncing; a full watcher of the same match upgrades it', async () => {
    const c = createClient({ url });
    try {
      const bug: number[] = [];
      const before = subscribes.length;
      ackVersion = 20;
      c.watchScorebug('m2', (f) => bug.push(f.version));
      await until(() => bug.length === 1, 'scorebug ack');
      expect(subscribes[before]).toEqual({ protocol: PROTOCOL_VERSION, matchId: 'm2', detail: 'scorebug' });
      io.to('m2').emit('state', { ...pushAt(25), matchId: 'm2', stats: undefined });
      await until(() => bug.length === 2, 'push 25');
      expect(bug).toEqual([20, 25]);
      await new Promise((r) => setTimeout(r, 100));
      expect(subscribes.length).toBe(before + 1); // no resync for a whole state

      const full: MatchFeed[] = [];
      ackVersion = 25;
      c.watch('m2', (f) => full.push(f));
      await until(() => full.length === 1, 'full ack after the upgrade');
      expect(subscribes[before + 1]).toEqual({ protocol: PROTOCOL_VERSION, matchId: 'm2', sinceVersion: 25, detail: 'full', pages: true });
      expect(full[0]!.version).toBe(25);
      expect(full[0]!.stats.check.scoreChange).toBe(25);
      expect(bug).toEqual([20, 25]); // the same version again is not news to the scorebug watcher
    } finally {
      c.close();
    }
  });

  it('hands a protocol-mismatch refusal to onError and to the record caller (a page of another build)', async () => {
    const errors: ApiError[] = [];
    const feeds: number[] = [];
    client.watch(
      'other-build',
      (f) => feeds.push(f.version),
      (e) => errors.push(e),
    );
    await until(() => errors.length === 1, 'the refusal');
    expect(errors[0]).toMatchObject({ code: 'protocol-mismatch', field: 'protocol' });
    expect(errors[0]!.message).toContain('reload the page');
    const ack = await client.record({ matchId: 'other-build', stepId: 'e1', step: BREAK });
    expect(ack).toEqual({ ok: false, error: errors[0] });
    expect(records).toEqual([{ protocol: PROTOCOL_VERSION, matchId: 'other-build', stepId: 'e1', step: BREAK }]);
    expect(feeds).toEqual([]);
  });

  it('asks again by itself after a transient refusal (back-off ~2 s), never after a protocol mismatch; retry() asks at once', { timeout: 20_000 }, async () => {
    const errors: string[] = [];
    const feeds: number[] = [];
    const mismatchBefore = asked.get('other-build') ?? 0;
    client.watch(
      'busy',
      (f) => feeds.push(f.version),
      (e) => errors.push(e.code),
    );
    await until(() => errors.length === 1, 'the rate-limited refusal');
    expect(errors).toEqual(['rate-limited']);
    const refusedAt = Date.now();
    await until(() => feeds.length === 1, 'the automatic retry', 10_000);
    expect(Date.now() - refusedAt).toBeGreaterThanOrEqual(1500); // a back-off, not a hot loop (2 s − 20 % jitter)
    expect([asked.get('busy'), feeds]).toEqual([2, [7]]);

    // The protocol mismatch of the test above was not asked again meanwhile; retry() asks at once.
    expect(asked.get('other-build')).toBe(mismatchBefore);
    client.retry('other-build');
    await until(() => asked.get('other-build') === mismatchBefore + 1, 'retry now');
    client.retry('not-watched'); // a match nobody watches: nothing is sent
    await new Promise((r) => setTimeout(r, 50));
    expect(asked.has('not-watched')).toBe(false);
  });
});
