/**
 * Events over REST, against both stores (the real Redis under a test prefix, and the embedded SQLite store):
 * create with tables and a roster, bad input refused naming the field (and nothing stored), the organiser
 * token (hash stored, checked by a yes/no endpoint), roster edits, how REST carries table matches, card buttons
 * and stale versions (status codes); and in embedded mode, everything still there after a restart. What the
 * tables do (assign / start / clear next, undo a start, automatic and manual cards, stale versions) is
 * tests/services/event-tables.test.ts, through the services without sockets.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningServer } from '../../server/app';
import { hashToken } from '../../server/tokens';
import { createEvent, EVENT, recordStep, stepsToWin, tableMatch, type CreatedEvent } from '../helpers/events';
import { dropPrefix, requireRedis, testPrefix } from '../helpers/redis';
import { api, startTestServer, tempDirs } from '../helpers/server';

const redis = await requireRedis();
const dirs = tempDirs();
const WIN = stepsToWin({ ...EVENT.defaults, players: ['A', 'B'] });

/** Refusals of bad event bodies: [what, body, code, field]. */
const BAD_EVENTS: [string, unknown, string, string][] = [
  ['a control character in the name', { ...EVENT, name: 'Friday\u0007' }, 'invalid-event', 'name'],
  ['a bidi override in a player name', { ...EVENT, roster: [{ name: 'Ann\u202eX' }] }, 'invalid-event', 'roster.0.name'],
  ['an unknown country', { ...EVENT, roster: [{ name: 'Ann', country: 'XX' }] }, 'invalid-event', 'roster.0.country'],
  ['a lower-case country', { ...EVENT, roster: [{ name: 'Ann', country: 'de' }] }, 'invalid-event', 'roster.0.country'],
  ['a day that does not exist', { ...EVENT, date: '2026-02-30' }, 'invalid-event', 'date'],
  ['no table', { ...EVENT, tables: [] }, 'invalid-event', 'tables'],
  ['33 tables', { ...EVENT, tables: Array.from({ length: 33 }, (_, i) => `T${i}`) }, 'invalid-event', 'tables'],
  ['two tables of one name', { ...EVENT, tables: ['Table 1', 'table 1'] }, 'invalid-event', 'tables.1.name'],
  ['an unknown table field', { ...EVENT, tables: [{ name: 'T', colour: 'red' }] }, 'invalid-event', 'tables.0.colour'],
  ['a bad table id', { ...EVENT, tables: [{ name: 'T', id: 'Big Table' }] }, 'invalid-event', 'tables.0.id'],
  ['an unknown top-level field', { ...EVENT, venue: 'Hall' }, 'invalid-event', 'venue'],
  ['a theme colour that is not hex', { ...EVENT, theme: { accent: 'red' } }, 'invalid-event', 'theme.accent'],
  [
    'a rules option the discipline lacks',
    { ...EVENT, defaults: { discipline: '14-1', options: { callShot: true } } },
    'invalid-event',
    'defaults.options.callShot',
  ],
  ['a short name over 16 characters', { ...EVENT, roster: [{ name: 'Ann', short: 'A'.repeat(17) }] }, 'invalid-event', 'roster.0.short'],
  ['a body that is not an object', [1, 2], 'invalid-event', 'body'],
];

function suite(mode: 'redis' | 'file', start: () => Promise<RunningServer>, restart?: () => Promise<RunningServer>) {
  describe(`events (${mode} store)`, () => {
    let s: RunningServer;
    let ev: CreatedEvent;
    const path = () => `/api/events/${ev.id}`;
    const as = (body?: unknown, token = ev.organiserToken) => ({ token, ...(body === undefined ? { body: {} } : { body }) });

    beforeAll(async () => {
      s = await start();
      ev = await createEvent(s.url);
    });
    afterAll(async () => {
      await s?.close();
    });

    it('creates an event with tables, roster ids and page links; the organiser token is shown once and only its hash kept', async () => {
      const res = await api(s.url, '/api/events', { body: EVENT });
      expect(res.status).toBe(201);
      const { id, organiserToken, event, urls } = res.body;
      expect(organiserToken).toMatch(/^[A-Za-z0-9_-]{32}$/);
      expect(event.tables.map((t: { id: string; name: string }) => [t.id, t.name])).toEqual([
        ['table-1', 'Table 1'],
        ['tv-table', 'TV table'],
      ]);
      expect(event.roster.map((p: { id: string }) => p.id)).toEqual(['p1', 'p2', 'p3', 'p4']);
      expect(event.roster[1]).toEqual({ id: 'p2', name: 'Bob Brown', country: 'GB-ENG', rating: 612 });
      expect(urls.organiser).toBe(`${s.url}/event/${id}#token=${organiserToken}`);
      expect(urls.tables['tv-table'].overlay).toBe(`${s.url}/overlay/table/${id}/tv-table`);
      const got = await api(s.url, `/api/events/${id}`);
      expect(got.status).toBe(200);
      expect(JSON.stringify(got.body)).not.toContain(organiserToken);
      expect(JSON.stringify(got.body)).not.toContain(hashToken(organiserToken));
      expect(got.body.urls.organiser).toBe(`${s.url}/event/${id}`);
      const list = await api(s.url, '/api/events');
      expect(list.body.events.find((e: { id: string }) => e.id === id)).toMatchObject({ name: 'Friday League', date: '2026-03-13', tables: 2 });
    });

    it('refuses bad input naming the field, and stores nothing', async () => {
      const before = (await api(s.url, '/api/events')).body.events.length;
      for (const [what, body, code, field] of BAD_EVENTS) {
        const res = await api(s.url, '/api/events', { body });
        expect(res.status, what).toBe(400);
        expect(res.body.error, what).toMatchObject({ code, field });
        expect(res.body.error.message, what).toContain(field);
      }
      const raw = await api(s.url, '/api/events', { rawBody: '{"name":' });
      expect(raw.body.error).toMatchObject({ code: 'invalid-event', field: 'body' });
      expect((await api(s.url, '/api/events')).body.events.length).toBe(before);
    });

    it('checks the organiser token: a yes/no endpoint, 401 without, 403 with a wrong one or another event’s, 404 for an unknown event', async () => {
      const other = await createEvent(s.url);
      const check = (token?: string) => api(s.url, `${path()}/organiser-check`, token ? { token } : {});
      expect((await check(ev.organiserToken)).body).toEqual({ valid: true });
      expect((await check()).body).toEqual({ valid: false, reason: 'no-token' });
      expect((await check('nope')).body).toEqual({ valid: false, reason: 'wrong-token' });
      expect((await api(s.url, '/api/events/nosuchevent/organiser-check')).status).toBe(404);
      const change = { body: { name: 'Renamed' } };
      expect((await api(s.url, path(), { method: 'PATCH', ...change })).body.error).toMatchObject({ code: 'unauthorized', field: 'token' });
      expect((await api(s.url, path(), { method: 'PATCH', ...change, token: other.organiserToken })).body.error).toMatchObject({
        code: 'forbidden',
        field: 'token',
      });
      expect((await api(s.url, `${path()}/tables/table-1/cards/caption-hide`, { body: {} })).status).toBe(401);
      expect((await api(s.url, '/api/events/nosuchevent', { method: 'PATCH', ...change, token: ev.organiserToken })).status).toBe(404);
      expect((await api(s.url, path())).body.name).toBe('Friday League');
    });

    it('edits the roster and adds a table', async () => {
      const added = await api(s.url, `${path()}/players`, as({ players: [{ name: 'Eve Ek', country: 'SE' }] }));
      expect(added.status).toBe(201);
      expect(added.body.event.roster.at(-1)).toEqual({ id: 'p5', name: 'Eve Ek', country: 'SE' });
      const patched = await api(s.url, `${path()}/players/p5`, { method: 'PATCH', ...as({ short: 'Eve', country: null, rating: 540 }) });
      expect(patched.body.event.roster.at(-1)).toEqual({ id: 'p5', name: 'Eve Ek', short: 'Eve', rating: 540 });
      expect((await api(s.url, `${path()}/players/p9`, { method: 'PATCH', ...as({ short: 'X' }) })).body.error).toMatchObject({
        code: 'not-found',
        field: 'playerId',
      });
      expect((await api(s.url, `${path()}/players`, as({ players: [{ name: 'Zed', country: 'GB-XYZ' }] }))).body.error).toMatchObject({
        field: 'players.0.country',
      });
      const removed = await api(s.url, `${path()}/players/p5`, { method: 'DELETE', ...as() });
      expect(removed.body.event.roster.map((p: { id: string }) => p.id)).toEqual(['p1', 'p2', 'p3', 'p4']);
      const table = await api(s.url, `${path()}/tables`, as({ name: 'Table 3' }));
      expect(table.body.event.tables.at(-1)).toMatchObject({ id: 'table-3', name: 'Table 3', current: null, next: null });
      expect((await api(s.url, `${path()}/tables`, as({ name: 'TV Table' }))).body.error).toMatchObject({ code: 'invalid-event', field: 'table.name' });
    });

    it('REST: makes a match for a table (201 with its scorer token), the card buttons are plain POSTs, an unknown one is refused naming the action, a stale change is 409 with currentVersion', async () => {
      // What each of these does is tests/services/event-tables.test.ts; here, how REST carries it.
      const m = await tableMatch(s.url, ev, 'table-1', ['p1', 'p2'], true);
      expect(m.scorerToken).toMatch(/^[A-Za-z0-9_-]{20,}$/);
      const press = (action: string) => api(s.url, `${path()}/tables/table-1/cards/${action}`, { method: 'POST', token: ev.organiserToken });
      const shown = await press('intro');
      expect(shown.status).toBe(200);
      expect(shown.body.table.cards).toMatchObject({ show: 'intro', shownBy: 'organiser' });
      expect((await press('dance')).body.error).toMatchObject({ code: 'invalid-request', field: 'action' });
      const bad = await api(s.url, `${path()}/tables/tv-table/matches`, as({ playerIds: ['p1', 'p1'] }));
      expect(bad.status).toBe(400);
      expect(bad.body.error).toMatchObject({ code: 'invalid-event', field: 'playerIds.1' });
      const { version } = (await api(s.url, path())).body;
      expect((await api(s.url, path(), { method: 'PATCH', ...as({ name: 'Friday League (final)', expectedVersion: version }) })).body.event.version).toBe(
        version + 1,
      );
      const late = await api(s.url, path(), { method: 'PATCH', ...as({ name: 'Other', expectedVersion: version }) });
      expect(late.status).toBe(409);
      expect(late.body).toMatchObject({ error: { code: 'stale', field: 'expectedVersion' }, currentVersion: version + 1 });
    });

    if (restart) {
      it('keeps events, tables, matches and the match links across a restart', async () => {
        const m = await tableMatch(s.url, ev, 'table-3', ['p1', 'p3'], true);
        const before = (await api(s.url, path())).body;
        await s.close();
        s = await restart();
        const after = (await api(s.url, path())).body;
        expect({ ...after, urls: null }).toEqual({ ...before, urls: null });
        // The link survives: the win still shows the summary.
        for (const step of WIN) await recordStep(s.url, m, step);
        await expect.poll(async () => (await api(s.url, `${path()}/tables/table-3`)).body.cards.show).toBe('summary');
      });
    }
  });
}

const prefix = testPrefix('events');
describe.skipIf(!redis.available)('Redis', () => {
  afterAll(() => dropPrefix(redis.url, prefix));
  suite('redis', () => startTestServer({ redisUrl: redis.url, redisPrefix: prefix }));
});
const dataDir = dirs('events');
suite(
  'file',
  () => startTestServer({ dataDir }),
  () => startTestServer({ dataDir }),
);
