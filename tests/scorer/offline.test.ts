/**
 * The console keeps scoring without the server:
 * - reloaded while the server is unreachable, it starts from the last confirmed snapshot cached next to the
 *   outbox (marked as such), projects the queued steps on it and queues new ones with the cached version,
 *   as if the page had never reloaded; the server's snapshot replaces the cache when it answers, and a step
 *   another scorer got in first is still refused as stale;
 * - it says "offline" when the browser has no network or a record goes unanswered while the socket still
 *   looks connected, and retries at once when the network comes back or the page becomes visible.
 */
import { afterEach, describe, expect, test, vi } from 'vitest';
import { view } from '../../shared/index';
import type { ApiError } from '../../shared/protocol/errors';
import type { MatchFeed } from '../../web/src/lib/client';
import { outboxKey } from '../../web/src/lib/outbox';
import { clearFeed, feedCacheKey, loadFeed, saveFeed } from '../../web/src/scorer/feed-cache';
import { ScorerSession, type SessionView } from '../../web/src/scorer/session';
import { FakeClient, FakeNetwork, MemStorage } from '../helpers/fake-client';

const settle = async () => {
  for (let i = 0; i < 3; i++) await new Promise((r) => setTimeout(r, 0));
};
const SETUP = { discipline: '14-1', players: ['Ann', 'Bob'], start: { score: [10, 10], turn: 'A', ballsOnTable: 12 } };
const made = (n: number) => ({ shot: { call: { made: true }, pocketed: n } });

const stops: (() => void)[] = [];
afterEach(() => {
  for (const s of stops.splice(0)) s();
  vi.useRealTimers();
});

function open(client: FakeClient, storage = new MemStorage(), network = new FakeNetwork()) {
  const s = new ScorerSession(client, 'm1', storage, true, network);
  stops.push(s.start());
  let last: SessionView = s.view();
  s.subscribe((v) => (last = v));
  return { s, view: () => last, storage, network };
}

describe('feed cache', () => {
  test('keeps set-up, version, state and the recent words, not the sheet; the newest snapshot replaces it', () => {
    const storage = new MemStorage();
    const client = new FakeClient(SETUP);
    client.external(made(2));
    const f = client.feed();
    saveFeed(storage, f, 1000);
    const raw = JSON.parse(storage.getItem(feedCacheKey('m1'))!) as Record<string, unknown>;
    expect(Object.keys(raw).sort()).toEqual(['format', 'matchId', 'recent', 'savedAt', 'setup', 'state', 'version']);
    expect(loadFeed(storage, 'm1')).toEqual({ matchId: 'm1', version: 1, setup: f.setup, state: f.state, recent: f.stats.recent, savedAt: 1000 });
    saveFeed(storage, { ...f, version: 2 }, 2000); // the newest snapshot the server sent replaces it
    expect(loadFeed(storage, 'm1')).toMatchObject({ version: 2, savedAt: 2000 });
    expect(loadFeed(storage, 'other')).toBeNull();
    clearFeed(storage, 'm1');
    expect(loadFeed(storage, 'm1')).toBeNull();
  });

  test('a damaged or foreign entry is ignored; a full storage is not an error', () => {
    const storage = new MemStorage();
    storage.setItem(feedCacheKey('m1'), '{not json');
    expect(loadFeed(storage, 'm1')).toBeNull();
    storage.setItem(feedCacheKey('m1'), JSON.stringify({ format: 1, matchId: 'm2', version: 0, setup: {}, state: {}, recent: [], savedAt: 1 }));
    expect(loadFeed(storage, 'm1')).toBeNull();
    storage.setItem(feedCacheKey('m1'), JSON.stringify({ format: 99, matchId: 'm1', version: 0, setup: {}, state: {}, recent: [], savedAt: 1 }));
    expect(loadFeed(storage, 'm1')).toBeNull();
    const full = {
      getItem: () => null,
      removeItem: () => {},
      setItem: () => {
        throw new Error('QuotaExceededError');
      },
    };
    expect(() => saveFeed(full, new FakeClient(SETUP).feed())).not.toThrow();
  });
});

describe('reload while the server is unreachable', () => {
  test('the cached table is shown, queued steps are projected on it, new steps queue with the cached version', async () => {
    const client = new FakeClient(SETUP);
    const first = open(client);
    await settle();
    first.s.submit(made(2));
    await settle();
    expect(client.version).toBe(1);
    client.setStatus('offline');
    first.s.submit({ shot: { call: 'safety' } }); // queued against version 1
    first.s.stop();

    // Reload: the server does not answer.
    client.reachable = false;
    const second = open(client, first.storage);
    await settle();
    const v = second.view();
    expect(v.feed).toBeNull();
    expect(v.cached?.savedAt).toBeTypeOf('number');
    expect(v.base?.version).toBe(1);
    expect(v.shown).toMatchObject({ pending: 1, projected: 1, state: { turn: 'B', score: [12, 10] } });
    expect(v.status).toBe('offline');

    // Keep scoring: Bob pockets 3, entered against the cached table and the queued safety.
    const e = second.s.submit(made(3));
    expect(e?.expectedVersion).toBe(2);
    expect(second.view().shown?.state.score).toEqual([12, 13]);
    const stored = JSON.parse(first.storage.getItem(outboxKey('m1'))!) as { expectedVersion: number }[];
    expect(stored.map((x) => x.expectedVersion)).toEqual([1, 2]);

    // The server answers: its snapshot replaces the cache, the outbox flushes in order.
    client.answer();
    client.setStatus('live');
    await settle();
    expect(second.view().cached).toBeNull();
    expect(second.view().queued).toHaveLength(0);
    expect(client.version).toBe(3);
    expect(view(client.match).score).toEqual([12, 13]);
    expect(loadFeed(first.storage, 'm1')?.version).toBe(3);
  });

  test('no cache and no answer: nothing to enter against (submit refuses) until the server answers', async () => {
    const client = new FakeClient(SETUP);
    client.reachable = false;
    client.status = 'offline';
    const { s, view: v } = open(client);
    await settle();
    expect([v().base, v().cached, v().shown]).toEqual([null, null, null]);
    expect(s.submit(made(1))).toBeNull();
    client.answer();
    await settle();
    expect(v().base?.version).toBe(0);
  });

  test('another scorer recorded meanwhile: the steps entered on the cached table are refused as stale, never applied', async () => {
    const client = new FakeClient(SETUP);
    const first = open(client);
    await settle();
    first.s.stop();
    client.reachable = false;
    client.status = 'offline';
    const second = open(client, first.storage);
    await settle();
    second.s.submit(made(1));
    second.s.submit({ shot: { call: 'safety' } });
    client.external({ shot: { call: { made: false } } }); // the other device, while we could not see it
    client.answer();
    client.setStatus('live');
    await settle();
    expect(client.version).toBe(1);
    expect(second.view().notice).toMatchObject({ kind: 'stale', steps: [made(1), { shot: { call: 'safety' } }] });
    expect(second.view().base?.state.turn).toBe('B');
    expect(second.view().queued).toHaveLength(0);
  });

  test('the server says the match does not exist: the cached table is dropped', async () => {
    const client = new FakeClient(SETUP);
    const storage = new MemStorage();
    saveFeed(storage, client.feed());
    client.reachable = false;
    class Missing extends FakeClient {
      override watch(_id: string, _f: (f: MatchFeed) => void, onError?: (e: ApiError) => void) {
        queueMicrotask(() => onError?.({ code: 'not-found', message: 'no match m1' }));
        return () => {};
      }
    }
    const s = new ScorerSession(new Missing(SETUP), 'm1', storage, true);
    expect(s.view().cached).not.toBeNull();
    stops.push(s.start());
    await settle();
    expect(s.view()).toMatchObject({ base: null, cached: null, notice: null, problem: { kind: 'not-found' } });
    expect(loadFeed(storage, 'm1')).toBeNull();
  });
});

describe('a dead network is "offline", and the console retries as soon as it is back', () => {
  test('the browser reports no network: offline at once (the socket still looks live), nothing is sent; back online → sent at once', async () => {
    const client = new FakeClient(SETUP);
    const { s, view: v, network } = open(client);
    await settle();
    network.fire('offline');
    expect([v().status, v().offlineReason]).toEqual(['offline', 'network']);
    s.submit(made(1));
    await settle();
    expect(client.received).toHaveLength(0);
    expect(v().queued).toHaveLength(1);
    network.fire('online'); // no waiting for the retry timer
    await settle();
    expect(client.received).toHaveLength(1);
    expect([v().status, v().queued.length]).toEqual(['live', 0]);
  });

  test('a record unanswered within the timeout: offline ("no-answer") while the client still says live; the retry sends the same event id', async () => {
    vi.useFakeTimers();
    const client = new FakeClient(SETUP);
    const { s, view: v } = open(client);
    await vi.advanceTimersByTimeAsync(1);
    client.blackhole = true;
    const entry = s.submit(made(1))!;
    await vi.advanceTimersByTimeAsync(1000);
    expect(v().status).toBe('live'); // still waiting for the ack
    await vi.advanceTimersByTimeAsync(4100);
    expect(client.status).toBe('live');
    expect([v().status, v().offlineReason, v().queued.length]).toEqual(['offline', 'no-answer', 1]);
    expect(client.reconnects).toBe(0);

    // The network is back: the page hears 'online' (or becomes visible) and retries at once, reconnecting first.
    client.blackhole = false;
    s.retryNow();
    expect(client.reconnects).toBe(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(client.received.map((r) => r.stepId)).toContain(entry.stepId);
    expect([v().status, v().offlineReason, v().queued.length]).toEqual(['live', null, 0]);
    expect(client.version).toBe(1);
  });

  test('becoming visible again retries; a client without reconnect() is just flushed', async () => {
    const client = new FakeClient(SETUP);
    const plain = {
      watch: client.watch.bind(client),
      record: client.record.bind(client),
      onStatus: client.onStatus.bind(client),
      get status() {
        return client.status;
      },
    };
    const network = new FakeNetwork();
    const s = new ScorerSession(plain, 'm1', new MemStorage(), true, network);
    stops.push(s.start());
    await settle();
    client.setStatus('offline');
    s.submit(made(1));
    client.status = 'live'; // reconnected without telling (as if the status event were still on its way)
    network.fire('visible');
    await settle();
    expect(client.version).toBe(1);
    expect(s.view().queued).toHaveLength(0);
  });
});
