/**
 * The live client's table and event subscriptions (web/src/lib/live-rooms.ts `roomClient(client)`: `watchTable`, `watchEvent`), in
 * Node over real sockets, against two server instances sharing the real Redis: a page on instance 2 follows a
 * table changed through instance 1, `watch()`es its current match and switches by itself; after instance 2
 * restarts on the same port, a switch made while it was down arrives by the resync; refusals reach `onError`;
 * the organiser's event subscription gets changes and live lines in version order.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClient, type LiveClient, type MatchFeed } from '../../web/src/lib/client';
import { roomClient } from '../../web/src/lib/live-rooms';
import type { RunningServer } from '../../server/app';
import type { ApiError } from '../../shared/protocol/errors';
import type { EventView, LiveLine, TableState } from '../../shared/protocol/event';
import { createEvent, recordStep, stepsToWin, tableMatch, EVENT } from '../helpers/events';
import { dropPrefix, freePort, requireRedis, testPrefix } from '../helpers/redis';
import { api, startTestServer } from '../helpers/server';

const redis = await requireRedis();
const prefix = testPrefix('client-table');
const WIN = stepsToWin({ ...EVENT.defaults, players: ['A', 'B'] });

/** Resolve once `pred` holds, polling every 10 ms (test side only). */
async function until(pred: () => boolean, what: string, timeoutMs = 10_000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!pred()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

/** What a table-following page does: follow the table, watch its current match, switch when it changes. */
function followTable(client: LiveClient, eventId: string, table: string) {
  const seen = { tables: [] as TableState[], feeds: [] as MatchFeed[], errors: [] as ApiError[] };
  let watching: string | null = null;
  let stopMatch: (() => void) | null = null;
  const stop = roomClient(client).watchTable(
    eventId,
    table,
    (t) => {
      seen.tables.push(t);
      if (t.current === watching) return;
      stopMatch?.();
      watching = t.current;
      stopMatch = t.current ? client.watch(t.current, (f) => seen.feeds.push(f)) : null;
    },
    (e) => seen.errors.push(e),
  );
  return { seen, stop: () => (stop(), stopMatch?.()) };
}

describe.skipIf(!redis.available)('watchTable and watchEvent over real sockets', () => {
  let s1: RunningServer;
  let s2: RunningServer;
  let port2: number;
  const clients: LiveClient[] = [];
  const open = () => {
    const c = createClient({ url: `http://127.0.0.1:${port2}` });
    clients.push(c);
    return c;
  };

  beforeAll(async () => {
    port2 = await freePort();
    s1 = await startTestServer({ redisUrl: redis.url, redisPrefix: prefix });
    s2 = await startTestServer({ redisUrl: redis.url, redisPrefix: prefix, port: port2 });
  });
  afterAll(async () => {
    for (const c of clients) c.close();
    await Promise.all([s1?.close(), s2?.close()]);
    await dropPrefix(redis.url, prefix);
  });

  it('follows a table: boots into its state, switches matches by itself, and resyncs after its instance restarts', async () => {
    const ev = await createEvent(s1.url);
    const m1 = await tableMatch(s1.url, ev, 'table-1', ['p1', 'p2'], true);
    const page = followTable(open(), ev.id, 'table-1');
    await until(() => page.seen.feeds.some((f) => f.matchId === m1.id), 'match 1 feed');
    expect(page.seen.tables[0]).toMatchObject({ eventName: 'Friday League', name: 'Table 1', current: m1.id, next: null });
    expect(page.seen.feeds[0]!.setup.countries).toEqual(['DK', 'GB-ENG']);

    await recordStep(s1.url, m1, WIN[0]!);
    await until(() => page.seen.feeds.some((f) => f.matchId === m1.id && f.version === 1), 'match 1 at version 1');
    const m2 = await tableMatch(s1.url, ev, 'table-1', ['p3', 'p4']);
    await until(() => page.seen.tables.at(-1)?.next === m2.id, 'match 2 as next');
    await api(s1.url, `/api/events/${ev.id}/tables/table-1/start`, { token: ev.organiserToken, body: {} });
    await until(() => page.seen.feeds.at(-1)?.matchId === m2.id, 'the switch to match 2');
    expect(page.seen.feeds.at(-1)!.state.names).toEqual(['Chen Wei', 'Dora Díaz']);
    const versions = page.seen.tables.map((t) => t.version);
    expect(versions).toEqual([...new Set(versions)].sort((a, b) => a - b));

    // Instance 2 goes away; the next switch happens meanwhile on instance 1; the page catches up on reconnect.
    await s2.close();
    const m3 = await tableMatch(s1.url, ev, 'table-1', ['p1', 'p3'], true);
    s2 = await startTestServer({ redisUrl: redis.url, redisPrefix: prefix, port: port2 });
    await until(() => page.seen.feeds.at(-1)?.matchId === m3.id, 'the switch to match 3 after the restart', 20_000);
    expect(page.seen.tables.at(-1)).toMatchObject({ current: m3.id, cards: { show: 'intro', matchId: m3.id } });
    page.stop();
  });

  it('hands refusals to onError', async () => {
    const ev = await createEvent(s1.url);
    const errors: ApiError[] = [];
    const c = open();
    roomClient(c).watchTable(
      ev.id,
      'no-such-table',
      () => undefined,
      (e) => errors.push(e),
    );
    roomClient(c).watchTable(
      'nosuchevent',
      'table-1',
      () => undefined,
      (e) => errors.push(e),
    );
    await until(() => errors.length === 2, 'two refusals');
    expect(errors.map((e) => [e.code, e.field]).sort()).toEqual([
      ['not-found', 'eventId'],
      ['not-found', 'table'],
    ]);
  });

  it('follows an event: its changes and its matches’ live lines, newest only', async () => {
    const ev = await createEvent(s1.url);
    const views: EventView[] = [];
    const lines: LiveLine[] = [];
    const c = open();
    roomClient(c).watchEvent(
      ev.id,
      (v) => views.push(v),
      (l) => lines.push(l),
    );
    await until(() => views.length === 1, 'the event');
    const m = await tableMatch(s1.url, ev, 'tv-table', ['p2', 'p4'], true);
    await until(() => views.at(-1)?.tables[1]!.current === m.id, 'the match on the TV table');
    for (const step of WIN) await recordStep(s1.url, m, step);
    await until(() => lines.at(-1)?.winner === 'A', 'the won match');
    expect(lines.map((l) => l.version)).toEqual(WIN.map((_, i) => i + 1));
    await until(() => views.at(-1)?.tables[1]!.cards.show === 'summary', 'the summary card in the event');
    expect(views.map((v) => v.version)).toEqual([...views.map((v) => v.version)].sort((a, b) => a - b));
  });
});
