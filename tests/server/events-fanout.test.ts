/**
 * Events on two server instances sharing one real Redis (own key prefix): a table switch made through one
 * instance reaches a page subscribed on the other; the organiser's event room gets every change and each
 * step's live line across instances; concurrent changes from both instances are all applied, once each
 * (compare-and-set with retry), and conflicting ones refused; the table/event socket envelopes are checked
 * like the others (field named, protocol version, subscription cap).
 */
import { describe, expect, it } from 'vitest';
import type { EventLivePush, EventView } from '../../shared/protocol/event';
import { PROTOCOL_VERSION } from '../../shared/protocol/wire';
import { createEvent, EVENT, recordStep, stepsToWin, TableWatcher, tableMatch } from '../helpers/events';
import { requireRedis, testPrefix } from '../helpers/redis';
import { api, call, createMatch, request, twoInstances } from '../helpers/server';

const redis = await requireRedis();
const prefix = testPrefix('events-fanout');
const WIN = stepsToWin({ ...EVENT.defaults, players: ['A', 'B'] });

describe.skipIf(!redis.available)('events on two instances over one Redis', () => {
  const pair = twoInstances(redis.url, prefix);
  const open = pair.open;

  it('a page following a table on instance 2 sees the switch to the next match and the cards made on instance 1', async () => {
    const ev = await createEvent(pair.s1.url);
    const viewer = await open(pair.s2.url);
    const table = new TableWatcher(viewer);
    const ack = await request(viewer, 'subscribeTable', { eventId: ev.id, table: 'tv-table' });
    expect(ack).toMatchObject({ ok: true, eventName: 'Friday League', name: 'TV table', current: null, next: null, theme: { accent: 'ff8800' } });

    const m1 = await tableMatch(pair.s1.url, ev, 'tv-table', ['p1', 'p2'], true);
    const on1 = await table.waitFor((t) => t.current === m1.id, 'with match 1 current');
    expect(on1.cards).toMatchObject({ show: 'intro', matchId: m1.id });
    const m2 = await tableMatch(pair.s1.url, ev, 'tv-table', ['p3', 'p4']);
    expect(await table.waitFor((t) => t.next === m2.id, 'with match 2 next')).toMatchObject({ current: m1.id, nextPlayers: ['Chen Wei', 'Dora Díaz'] });
    // Steps recorded on instance 1: the first takes the intro down, the win puts the summary up.
    for (const step of WIN) await recordStep(pair.s1.url, m1, step);
    await table.waitFor((t) => t.cards.show === 'summary' && t.cards.matchId === m1.id, 'with the summary of match 1');
    const started = await api(pair.s1.url, `/api/events/${ev.id}/tables/tv-table/start`, { token: ev.organiserToken, body: {} });
    expect(started.status).toBe(200);
    const on2 = await table.waitFor((t) => t.current === m2.id, 'with match 2 current');
    expect(on2).toMatchObject({ next: null, cards: { show: 'intro', matchId: m2.id, shownBy: 'auto' } });
    // Pushes arrive in version order, only for this table.
    const versions = table.pushes.map((p) => p.version);
    expect(versions).toEqual([...versions].sort((a, b) => a - b));
    expect(table.pushes.every((p) => p.table === 'tv-table')).toBe(true);
  });

  it('the organiser’s event room on instance 2 gets every change and each step’s live line', async () => {
    const ev = await createEvent(pair.s2.url);
    const organiser = await open(pair.s2.url);
    const views: EventView[] = [];
    const lines: EventLivePush[] = [];
    organiser.on('event', (v) => views.push(v));
    organiser.on('eventLive', (l) => lines.push(l));
    const ack = await request(organiser, 'subscribeEvent', { eventId: ev.id });
    expect(ack.ok && ack.event.tables.length).toBe(2);
    const m = await tableMatch(pair.s1.url, ev, 'table-1', ['p1', 'p2'], true);
    await expect.poll(() => views.some((v) => v.tables[0]!.current === m.id && v.live[m.id]?.names[0] === 'Ann Andersen')).toBe(true);
    await recordStep(pair.s1.url, m, WIN[0]!);
    await recordStep(pair.s1.url, m, WIN[1]!);
    await recordStep(pair.s1.url, m, WIN[2]!);
    await expect.poll(() => lines.at(-1)?.line.version).toBe(3);
    expect(lines.every((l) => l.eventId === ev.id && l.line.matchId === m.id)).toBe(true);
    expect(lines.at(-1)!.line).toMatchObject({ score: [1, 0], turn: 'A', run: 1 });
  });

  it('concurrent changes from both instances are all applied once; conflicting ones are refused', async () => {
    const tables = Array.from({ length: 8 }, (_, i) => `Table ${i + 1}`);
    const ev = await createEvent(pair.s1.url, { ...EVENT, tables });
    const matches = await Promise.all(
      tables.map((_, i) => createMatch(i % 2 ? pair.s1.url : pair.s2.url, { discipline: '14-1', players: [`A${i}`, `B${i}`] })),
    );
    const v0 = ev.event.version;
    const results = await Promise.all(
      matches.map((m, i) =>
        api(i % 2 ? pair.s2.url : pair.s1.url, `/api/events/${ev.id}/tables/table-${i + 1}/assign`, { token: ev.organiserToken, body: { matchId: m.id } }),
      ),
    );
    expect(results.map((r) => r.status)).toEqual(matches.map(() => 200));
    // Each change got its own version: none was lost or merged.
    expect(new Set(results.map((r) => r.body.event.version)).size).toBe(8);
    const after = (await api(pair.s2.url, `/api/events/${ev.id}`)).body;
    expect(after.version).toBe(v0 + 8);
    expect(after.tables.map((t: { next: string }) => t.next)).toEqual(matches.map((m) => m.id));

    // Both instances start the same table's next match at once: one starts it, the other hears there is none.
    const starts = await Promise.all(
      [pair.s1, pair.s2].map((s) => api(s.url, `/api/events/${ev.id}/tables/table-1/start`, { token: ev.organiserToken, body: {} })),
    );
    expect(starts.map((r) => r.status).sort()).toEqual([200, 409]);
    expect(starts.find((r) => r.status === 409)!.body.error).toMatchObject({ code: 'no-next-match' });
    // The same match put on two tables at once from both instances: one table gets it.
    const m = await createMatch(pair.s1.url, { discipline: '14-1', players: ['X', 'Y'] });
    const both = await Promise.all([
      api(pair.s1.url, `/api/events/${ev.id}/tables/table-2/assign`, { token: ev.organiserToken, body: { matchId: m.id, start: true } }),
      api(pair.s2.url, `/api/events/${ev.id}/tables/table-3/assign`, { token: ev.organiserToken, body: { matchId: m.id, start: true } }),
    ]);
    expect(both.map((r) => r.status).sort()).toEqual([200, 409]);
    expect(both.find((r) => r.status === 409)!.body.error).toMatchObject({ code: 'match-on-table', field: 'matchId' });
    // Two changes naming the same version: the second is stale.
    const { version } = (await api(pair.s1.url, `/api/events/${ev.id}`)).body;
    const named = await Promise.all(
      [pair.s1, pair.s2].map((s, i) =>
        api(s.url, `/api/events/${ev.id}/tables/table-${4 + i}/cards/caption-hide`, { token: ev.organiserToken, body: { expectedVersion: version } }),
      ),
    );
    expect(named.map((r) => r.status).sort()).toEqual([200, 409]);
    expect(named.find((r) => r.status === 409)!.body).toMatchObject({ error: { code: 'stale' }, currentVersion: version + 1 });
  });

  it('checks the table and event envelopes like every other message', async () => {
    const ev = await createEvent(pair.s1.url, { ...EVENT, tables: Array.from({ length: 21 }, (_, i) => `T${i + 1}`) });
    const s = await open(pair.s2.url);
    const sub = (payload: unknown) => call<{ ok: boolean; error?: { code: string; field?: string } }>(s, 'subscribeTable', payload);
    expect((await sub({ eventId: ev.id, table: 't1' })).error).toMatchObject({ code: 'protocol-mismatch', field: 'protocol' });
    expect((await sub({ protocol: PROTOCOL_VERSION, eventId: ev.id, table: 'T 1' })).error).toMatchObject({ code: 'invalid-request', field: 'table' });
    expect((await sub({ protocol: PROTOCOL_VERSION, eventId: ev.id, table: 't1', extra: 1 })).error).toMatchObject({ code: 'invalid-request' });
    expect((await sub({ protocol: PROTOCOL_VERSION, eventId: 'nosuchevent', table: 't1' })).error).toMatchObject({ code: 'not-found', field: 'eventId' });
    expect((await sub({ protocol: PROTOCOL_VERSION, eventId: ev.id, table: 'nosuch' })).error).toMatchObject({ code: 'not-found', field: 'table' });
    expect((await call<{ ok: boolean; error?: { code: string } }>(s, 'subscribeEvent', { protocol: PROTOCOL_VERSION, eventId: '../x' })).error).toMatchObject({
      code: 'invalid-request',
      field: 'eventId',
    });
    // Refused subscriptions left no room behind; 20 tables fit, the 21st is over the connection's cap.
    for (let i = 1; i <= 20; i++) expect((await sub({ protocol: PROTOCOL_VERSION, eventId: ev.id, table: `t${i}` })).ok).toBe(true);
    expect((await sub({ protocol: PROTOCOL_VERSION, eventId: ev.id, table: 't21' })).error).toMatchObject({ code: 'rate-limited', field: 'table' });
    s.emit('unsubscribeTable', { eventId: ev.id, table: 't1' });
    expect((await sub({ protocol: PROTOCOL_VERSION, eventId: ev.id, table: 't21' })).ok).toBe(true);
  });
});
