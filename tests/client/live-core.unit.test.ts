/**
 * The live client's core (web/src/lib/live-connection.ts, live-subscriptions.ts, live-matches.ts,
 * live-rooms.ts) over a fake socket port and a fake page document (tests/helpers/fake-port.ts): no server, no
 * timers except the one back-off test (fake timers). Versioning (older and equal pushes ignored; each listener
 * hears versions in increasing order), a gap in versions asks again (statistics deltas) or is shown (whole
 * states, tables, events), resync on reconnect and on visibility, the push before the first answer, a second
 * watcher joining, leaving, refusals and the back-off after a transient one, and close.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { newMatch, statsOf, view } from '../../shared/index';
import { parseSetup } from '../../server/protocol/setup-schemas';
import type { EventView, LiveLine, TableState } from '../../shared/protocol/event';
import { applyStatsDelta } from '../../shared/protocol/stats-delta';
import type { Step } from '../../shared/protocol/steps';
import { PROTOCOL_VERSION, type MatchStats, type StatePush, type SubscribeAck } from '../../shared/protocol/wire';
import { openConnection } from '../../web/src/lib/live-connection';
import { followStats, matchSubscriptions, watchFull, watchScorebug, type MatchFeed, type ScorebugFeed } from '../../web/src/lib/live-matches';
import { roomClient } from '../../web/src/lib/live-rooms';
import { FakeDocument, FakePort } from '../helpers/fake-port';

const SETUP = { discipline: '14-1', ruleset: 'nba', players: ['Ann', 'Bob'], targets: [100, 100] };
const BREAK: Step = { shot: { call: 'safety', breakRails: { objectBalls: 2, cueBall: true } } };
const base = newMatch(parseSetup(SETUP));
const stats = statsOf(base);
/** The statistics at version v of this scripted match: the base ones with a version-numbered check. */
const statsAt = (v: number): MatchStats => ({ ...stats, check: { ...stats.check, scoreChange: v } });
const stateAt = (v: number) => ({ ...view(base), steps: v });
const fullAck = (v: number, matchId = 'm1'): SubscribeAck => ({
  ok: true,
  detail: 'full',
  setup: base.setup,
  matchId,
  version: v,
  state: stateAt(v),
  stats: statsAt(v),
});
const scorebugAck = (v: number, matchId = 'm1'): SubscribeAck => ({ ok: true, detail: 'scorebug', setup: base.setup, matchId, version: v, state: stateAt(v) });
/** A player's totals without the runs list (as a statistics delta carries them). */
const totalsOf = (i: 0 | 1) => {
  const { runs: _runs, ...totals } = stats.players[i];
  return totals;
};
/** A push at version v whose statistics delta applies to version `since` (v − 1 when well-behaved); none for the scorebug room. */
const pushAt = (v: number, since: number | null = v - 1, matchId = 'm1'): StatePush => ({
  matchId,
  version: v,
  state: stateAt(v),
  step: BREAK,
  ...(since === null
    ? {}
    : {
        stats: {
          since,
          players: [totalsOf(0), totalsOf(1)],
          sheet: { from: 0, rows: [] },
          racks: { from: 0, rows: [] },
          recent: { before: [], from: 0, to: 0, after: [] },
          check: statsAt(v).check,
        },
      }),
});

const table = (version: number, current: string | null = 'm1'): TableState => ({
  eventId: 'ev1',
  eventName: 'Friday League',
  table: 't1',
  name: 'Table 1',
  theme: {},
  current,
  next: null,
  nextPlayers: null,
  cards: { show: 'none', matchId: null, shownBy: null, seq: 0, captionHidden: false, auto: true },
  sponsors: [],
  version,
});
const eventView = (version: number): EventView => ({
  id: 'ev1',
  name: 'Friday League',
  date: '2026-12-01',
  defaults: { discipline: '14-1', targets: [100, 100] },
  theme: {},
  tables: [],
  roster: [],
  matches: [],
  version,
  createdAt: 0,
  updatedAt: 0,
  live: {},
});
const line = (matchId: string, version: number): LiveLine => ({
  matchId,
  version,
  discipline: '14-1',
  names: ['Ann', 'Bob'],
  score: [version, 0],
  targets: [100, 100],
  turn: 'A',
  run: 0,
  onTwoFouls: [false, false],
  rack: 1,
  winner: null,
});

/** A connection over a fake port and document, with full match subscriptions (statistics deltas applied). */
function setUp() {
  const port = new FakePort();
  const doc = new FakeDocument();
  const connection = openConnection(port, { document: doc, retryRefusedMs: () => 10 });
  const matches = matchSubscriptions(connection, followStats(applyStatsDelta));
  return { port, doc, connection, matches };
}

/** Let queued microtasks run (a second watcher starts from the held value in one). */
const microtasks = () => new Promise<void>((r) => setTimeout(r, 0));

afterEach(() => {
  vi.useRealTimers();
});

describe('versioned match subscriptions', () => {
  it('hands out newer versions only: equal and older pushes are ignored, the next one applies its statistics delta', () => {
    const { port, matches } = setUp();
    const feeds: MatchFeed[] = [];
    watchFull(matches, 'm1', (f) => feeds.push(f));
    expect(port.count('subscribe')).toBe(0); // not connected yet: the connect asks
    port.open();
    expect(port.asked.subscribe[0]!.req).toEqual({ protocol: PROTOCOL_VERSION, matchId: 'm1', detail: 'full', pages: true });
    watchFull(matches, 'm1', () => undefined)(); // a second watcher that leaves at once changes nothing
    port.answer('subscribe', fullAck(3));
    port.pushState(pushAt(3)); // equal: ignored
    port.pushState(pushAt(2)); // older: ignored
    port.pushState(pushAt(4)); // the next: applied
    expect(feeds.map((f) => f.version)).toEqual([3, 4]);
    expect(feeds[1]!.stats.check.scoreChange).toBe(4);
    expect(feeds[1]!.stats.players).toEqual(stats.players);
    expect(feeds[1]!.setup).toEqual(base.setup);
    expect(port.pending.subscribe).toEqual([]); // no resync asked
  });

  it('a gap in versions asks again from the version held (the statistics move on by deltas); so does a delta of another base', () => {
    const { port, matches } = setUp();
    const feeds: number[] = [];
    watchFull(matches, 'm1', (f) => feeds.push(f.version));
    port.open();
    port.answer('subscribe', fullAck(5));
    port.pushState(pushAt(8)); // 5 → 8: its delta is from 7
    expect(feeds).toEqual([5]);
    expect(port.asked.subscribe[1]!.req).toEqual({ protocol: PROTOCOL_VERSION, matchId: 'm1', sinceVersion: 5, detail: 'full', pages: true });
    port.pushState(pushAt(6)); // while the resync is out, a push that follows still applies
    expect(feeds).toEqual([5, 6]);
    port.answer('subscribe', fullAck(8));
    expect(feeds).toEqual([5, 6, 8]);
    port.pushState(pushAt(9, 7)); // the next version, but its delta is from 7: ask again
    expect(port.asked.subscribe[2]!.req).toMatchObject({ sinceVersion: 8 });
    port.pushState(pushAt(9, null)); // the next version without statistics (a scorebug push): ask again …
    expect(port.count('subscribe')).toBe(3); // … once the one in flight is answered
    port.answer('subscribe', fullAck(8));
    expect(port.asked.subscribe[3]!.req).toMatchObject({ sinceVersion: 8 });
    expect(feeds).toEqual([5, 6, 8]);
  });

  it('a scorebug watcher shows a push that skips versions (a whole state) without asking again', () => {
    const { port, matches } = setUp();
    const feeds: ScorebugFeed[] = [];
    watchScorebug(matches, 'm1', (f) => feeds.push(f));
    port.open();
    expect(port.asked.subscribe[0]!.req).toEqual({ protocol: PROTOCOL_VERSION, matchId: 'm1', detail: 'scorebug' });
    port.answer('subscribe', scorebugAck(20));
    port.pushState(pushAt(25, null));
    port.pushState(pushAt(24, null)); // older: ignored
    expect(feeds.map((f) => f.version)).toEqual([20, 25]);
    expect(feeds[1]!.state.steps).toBe(25);
    expect(port.count('subscribe')).toBe(1);
  });

  it('a push that arrives before the first answer waits for it, then applies', () => {
    const { port, matches } = setUp();
    const feeds: number[] = [];
    watchFull(matches, 'm1', (f) => feeds.push(f.version));
    port.open();
    port.pushState(pushAt(4));
    port.pushState(pushAt(3)); // an older early push does not replace the newer one
    expect(feeds).toEqual([]);
    port.answer('subscribe', fullAck(3));
    expect(feeds).toEqual([3, 4]);
  });

  it('resyncs on reconnect: acks of the dead connection are dropped, the match is asked again from its version, the same version is not handed out twice', () => {
    const { port, connection, matches } = setUp();
    const feeds: number[] = [];
    const statuses: string[] = [];
    connection.onStatus((s) => statuses.push(s));
    watchFull(matches, 'm1', (f) => feeds.push(f.version));
    port.open();
    port.answer('subscribe', fullAck(10));
    port.pushState(pushAt(12)); // a gap: a resync goes out …
    port.drop(); // … and dies with the connection
    expect(connection.status).toBe('offline');
    port.open();
    expect(connection.status).toBe('live');
    expect(statuses).toEqual(['live', 'offline', 'live']);
    expect(port.count('subscribe')).toBe(3);
    expect(port.asked.subscribe[2]!.req).toEqual({ protocol: PROTOCOL_VERSION, matchId: 'm1', sinceVersion: 10, detail: 'full', pages: true });
    port.take('subscribe'); // this ack is lost too: the connection looks open but is dead
    port.drop();
    port.open(); // a request still counted in flight on the dead connection does not hold the next one back
    expect(port.count('subscribe')).toBe(4);
    port.answer('subscribe', fullAck(10));
    expect(feeds).toEqual([10]);
    port.pushState(pushAt(11));
    expect(feeds).toEqual([10, 11]);
  });

  it('resyncs when the page becomes visible again, not when it is hidden; one request per match at a time', () => {
    const { port, doc, matches } = setUp();
    watchFull(matches, 'm1', () => undefined);
    port.open();
    port.answer('subscribe', fullAck(1));
    doc.hide();
    expect(port.count('subscribe')).toBe(1);
    doc.show();
    expect(port.asked.subscribe[1]!.req).toMatchObject({ matchId: 'm1', sinceVersion: 1 });
    doc.hide();
    doc.show();
    doc.show();
    expect(port.count('subscribe')).toBe(2); // none while one is out …
    port.answer('subscribe', fullAck(1));
    expect(port.count('subscribe')).toBe(3); // … one more once it is answered
  });

  it('a second watcher starts from the value held; a scorebug match watched full asks again at full and hands the statistics over once', async () => {
    const { port, matches } = setUp();
    const bug: number[] = [];
    const bug2: number[] = [];
    const full: MatchFeed[] = [];
    watchScorebug(matches, 'm1', (f) => bug.push(f.version));
    port.open();
    port.answer('subscribe', scorebugAck(7));
    watchScorebug(matches, 'm1', (f) => bug2.push(f.version));
    expect(bug2).toEqual([]);
    await microtasks();
    expect(bug2).toEqual([7]);
    watchFull(matches, 'm1', (f) => full.push(f));
    expect(port.asked.subscribe[1]!.req).toEqual({ protocol: PROTOCOL_VERSION, matchId: 'm1', sinceVersion: 7, detail: 'full', pages: true });
    await microtasks();
    expect(full).toEqual([]); // the value held has no statistics
    port.answer('subscribe', fullAck(7));
    expect(full.map((f) => [f.version, f.stats.check.scoreChange])).toEqual([[7, 7]]);
    expect(bug).toEqual([7]); // the same version is not news to the scorebug watchers
    port.pushState(pushAt(8));
    expect([bug, bug2, full.map((f) => f.version)]).toEqual([
      [7, 8],
      [7, 8],
      [7, 8],
    ]);
  });

  it('the last watcher out leaves the match (told only while connected); pushes for it are ignored', () => {
    const { port, matches } = setUp();
    const feeds: number[] = [];
    const stop1 = watchFull(matches, 'm1', (f) => feeds.push(f.version));
    const stop2 = watchFull(matches, 'm1', () => undefined);
    port.open();
    port.answer('subscribe', fullAck(1));
    stop1();
    expect(port.told).toEqual([]);
    stop2();
    expect(port.told).toEqual([{ event: 'unsubscribe', req: { matchId: 'm1' } }]);
    port.pushState(pushAt(2));
    expect(feeds).toEqual([1]);
    const stop3 = watchScorebug(matches, 'm2', () => undefined);
    port.drop();
    stop3();
    expect(port.told).toHaveLength(1);
    port.open();
    expect(port.pending.subscribe).toEqual([]); // nothing watched: nothing asked
  });

  it('hands refusals to onError; a transient one is asked again after a back-off (about 2 s, then doubling), another refusal only at the next resync', () => {
    vi.useFakeTimers();
    const { port, matches } = setUp();
    const errors: string[] = [];
    const feeds: number[] = [];
    watchFull(
      matches,
      'busy',
      (f) => feeds.push(f.version),
      (e) => errors.push(e.code),
    );
    watchFull(
      matches,
      'gone',
      () => undefined,
      (e) => errors.push(e.code),
    );
    port.open();
    port.answer('subscribe', { ok: false, error: { code: 'rate-limited', message: 'slow down' } });
    port.answer('subscribe', { ok: false, error: { code: 'not-found', message: 'no such match', field: 'matchId' } });
    expect(errors).toEqual(['rate-limited', 'not-found']);
    vi.advanceTimersByTime(1500);
    expect(port.count('subscribe')).toBe(2);
    vi.advanceTimersByTime(1000); // 2 s ± 20 %
    expect(port.take('subscribe').req.matchId).toBe('busy'); // unanswered: the connection drops
    port.drop();
    port.open();
    expect(port.pending.subscribe.map((p) => p.req.matchId)).toEqual(['busy', 'gone']);
    port.answer('subscribe', { ok: false, error: { code: 'internal', message: 'failed' } });
    port.answer('subscribe', { ok: false, error: { code: 'not-found', message: 'no such match', field: 'matchId' } });
    vi.advanceTimersByTime(3000); // refused again: the next wait is about 4 s
    expect(port.pending.subscribe).toEqual([]);
    vi.advanceTimersByTime(2000);
    port.answer('subscribe', fullAck(9, 'busy'));
    expect(feeds).toEqual([9]);
    vi.advanceTimersByTime(120_000);
    expect(port.pending.subscribe).toEqual([]); // `not-found` is not asked again by itself
  });

  it('a subscribe that is not answered in time is asked again at the next resync', () => {
    const { port, doc, matches } = setUp();
    const feeds: number[] = [];
    watchFull(matches, 'm1', (f) => feeds.push(f.version));
    port.open();
    port.lose('subscribe');
    doc.show();
    port.answer('subscribe', fullAck(2));
    expect(feeds).toEqual([2]);
  });

  it('after close nothing is asked again: status offline, the socket closed, listeners gone', () => {
    const { port, doc, connection, matches } = setUp();
    watchFull(matches, 'm1', () => undefined);
    port.open();
    port.answer('subscribe', fullAck(1));
    connection.close();
    expect(connection.status).toBe('offline');
    expect(connection.closed).toBe(true);
    expect(port.connected).toBe(false);
    doc.show();
    port.open();
    expect(port.count('subscribe')).toBe(1);
  });
});

describe('a long score sheet in pages', () => {
  const row = (i: number) => ({ ...stats.sheet[0]!, inning: i }) as MatchStats['sheet'][number];
  const rows = (from: number, to: number) => Array.from({ length: to - from }, (_, k) => row(from + k));
  const pagedAck = (v: number, total: number, sheetFrom: number): SubscribeAck => ({
    ...(fullAck(v) as Extract<SubscribeAck, { stats: unknown }>),
    sheetFrom,
    stats: { ...statsAt(v), sheet: rows(sheetFrom, total) },
  });

  it('hands the feed on only once every page of the answer came, the sheet whole and in order; pages of another version are ignored', () => {
    const { port, matches } = setUp();
    const feeds: MatchFeed[] = [];
    watchFull(matches, 'm1', (f) => feeds.push(f));
    port.open();
    port.answer('subscribe', pagedAck(7, 1200, 700));
    expect(feeds).toEqual([]);
    port.pushSheetPage({ matchId: 'm1', version: 7, from: 500, rows: rows(500, 700) });
    port.pushSheetPage({ matchId: 'm1', version: 6, from: 0, rows: rows(0, 500).map(() => row(-1)) }); // another answer's
    port.pushSheetPage({ matchId: 'm2', version: 7, from: 0, rows: rows(0, 500).map(() => row(-1)) }); // another match's
    expect(feeds).toEqual([]);
    port.pushSheetPage({ matchId: 'm1', version: 7, from: 0, rows: rows(0, 500) });
    expect(feeds).toHaveLength(1);
    expect(feeds[0]!.version).toBe(7);
    expect(feeds[0]!.stats.sheet.map((r) => (r as { inning: number }).inning)).toEqual(rows(0, 1200).map((r) => (r as { inning: number }).inning));
    expect('sheetFrom' in feeds[0]!).toBe(false);
    // Then the pushes move it on as usual.
    port.pushState(pushAt(8));
    expect(feeds.map((f) => f.version)).toEqual([7, 8]);
  });

  it('answers rate-limited when the pages stop coming, and asks again after the back-off', () => {
    vi.useFakeTimers();
    const { port, matches } = setUp();
    const errors: string[] = [];
    watchFull(
      matches,
      'm1',
      () => undefined,
      (e) => errors.push(e.code),
    );
    port.open();
    port.answer('subscribe', pagedAck(7, 1200, 700));
    port.pushSheetPage({ matchId: 'm1', version: 7, from: 0, rows: rows(0, 500) });
    vi.advanceTimersByTime(5000);
    expect(errors).toEqual(['rate-limited']);
    vi.advanceTimersByTime(3000);
    expect(port.count('subscribe')).toBe(2);
  });
});

describe('tables and events on the same core', () => {
  it('a table: newer versions only (a whole state: a gap is shown), asked again on reconnect and on visibility', () => {
    const { port, doc, connection } = setUp();
    const rooms = roomClient({ connection });
    expect(roomClient({ connection })).toBe(rooms); // one set per connection
    const seen: TableState[] = [];
    rooms.watchTable('ev1', 't1', (t) => seen.push(t));
    port.open();
    expect(port.asked.subscribeTable[0]!.req).toEqual({ protocol: PROTOCOL_VERSION, eventId: 'ev1', table: 't1' });
    port.answer('subscribeTable', { ok: true, ...table(4) });
    expect(seen).toEqual([table(4)]); // the ack's `ok` is not part of the table state
    port.pushTable(table(4, 'm2')); // equal: ignored
    port.pushTable(table(3, 'm2')); // older: ignored
    port.pushTable(table(9, 'm2')); // a gap: shown, nothing asked
    port.pushTable({ ...table(10), table: 't2' }); // another table: not watched
    expect(seen.map((t) => [t.version, t.current])).toEqual([
      [4, 'm1'],
      [9, 'm2'],
    ]);
    expect(port.count('subscribeTable')).toBe(1);
    port.drop();
    port.open();
    expect(port.count('subscribeTable')).toBe(2);
    port.answer('subscribeTable', { ok: true, ...table(9, 'm2') });
    doc.show();
    expect(port.count('subscribeTable')).toBe(3);
    port.answer('subscribeTable', { ok: true, ...table(11, 'm3') });
    expect(seen.map((t) => t.version)).toEqual([4, 9, 11]);
  });

  it('an event: newer versions only, its live lines newer per match only, refusals to onError, leaving tells the server', () => {
    const { port, connection } = setUp();
    const rooms = roomClient({ connection });
    const views: number[] = [];
    const lines: [string, number][] = [];
    const errors: string[] = [];
    const stop = rooms.watchEvent(
      'ev1',
      (v) => views.push(v.version),
      (l) => lines.push([l.matchId, l.version]),
    );
    rooms.watchTable(
      'ev1',
      'nope',
      () => undefined,
      (e) => errors.push(`${e.code} ${e.field}`),
    );
    port.open();
    port.answer('subscribeEvent', { ok: true, event: eventView(2) });
    port.answer('subscribeTable', { ok: false, error: { code: 'not-found', message: 'no such table', field: 'table' } });
    port.pushEvent(eventView(1));
    port.pushEvent(eventView(5));
    port.pushLive({ eventId: 'ev1', line: line('m1', 1) });
    port.pushLive({ eventId: 'ev1', line: line('m2', 1) });
    port.pushLive({ eventId: 'ev1', line: line('m1', 1) }); // not newer for m1
    port.pushLive({ eventId: 'ev1', line: line('m1', 2) });
    port.pushLive({ eventId: 'ev2', line: line('m9', 1) }); // another event
    expect(views).toEqual([2, 5]);
    expect(lines).toEqual([
      ['m1', 1],
      ['m2', 1],
      ['m1', 2],
    ]);
    expect(errors).toEqual(['not-found table']);
    stop();
    expect(port.told).toEqual([{ event: 'unsubscribeEvent', req: { eventId: 'ev1' } }]);
    port.pushLive({ eventId: 'ev1', line: line('m1', 3) });
    expect(lines).toHaveLength(3);
  });
});
