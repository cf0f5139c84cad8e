/**
 * Events over REST, against both stores (the real Redis under a test prefix, and the embedded file store):
 * create with tables and a roster, bad input refused naming the field (and nothing stored), the organiser
 * token (hash stored, checked by a yes/no endpoint), roster edits, matches made for tables from the roster
 * (countries travel into the set-up), assign / start / clear next, automatic and manual cards, stale
 * versions; and in embedded mode, everything still there after a restart.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningServer } from '../../server/app';
import { hashToken } from '../../server/tokens';
import { createEvent, EVENT, recordStep, stepsToWin, tableMatch, type CreatedEvent } from '../helpers/events';
import { dropPrefix, requireRedis, testPrefix } from '../helpers/redis';
import { api, createMatch, startTestServer, tempDirs } from '../helpers/server';

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
  ['a rules option the discipline lacks', { ...EVENT, defaults: { discipline: '14-1', options: { callShot: true } } }, 'invalid-event', 'defaults.options.callShot'],
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
      expect(event.tables.map((t: { id: string; name: string }) => [t.id, t.name])).toEqual([['table-1', 'Table 1'], ['tv-table', 'TV table']]);
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
      expect((await api(s.url, path(), { method: 'PATCH', ...change, token: other.organiserToken })).body.error).toMatchObject({ code: 'forbidden', field: 'token' });
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
      expect((await api(s.url, `${path()}/players/p9`, { method: 'PATCH', ...as({ short: 'X' }) })).body.error).toMatchObject({ code: 'not-found', field: 'playerId' });
      expect((await api(s.url, `${path()}/players`, as({ players: [{ name: 'Zed', country: 'GB-XYZ' }] }))).body.error).toMatchObject({ field: 'players.0.country' });
      const removed = await api(s.url, `${path()}/players/p5`, { method: 'DELETE', ...as() });
      expect(removed.body.event.roster.map((p: { id: string }) => p.id)).toEqual(['p1', 'p2', 'p3', 'p4']);
      const table = await api(s.url, `${path()}/tables`, as({ name: 'Table 3' }));
      expect(table.body.event.tables.at(-1)).toMatchObject({ id: 'table-3', name: 'Table 3', current: null, next: null });
      expect((await api(s.url, `${path()}/tables`, as({ name: 'TV Table' }))).body.error).toMatchObject({ code: 'invalid-event', field: 'table.name' });
    });

    it('makes matches for a table from the roster, assigns and starts the next one, and refuses what does not fit', async () => {
      const m1 = await tableMatch(s.url, ev, 'table-1', ['p1', 'p2'], true);
      const got = await api(s.url, `/api/matches/${m1.id}`);
      expect(got.body.setup).toMatchObject({ players: ['Ann Andersen', 'Bob Brown'], countries: ['DK', 'GB-ENG'], targets: [3, 3], ruleset: 'nba' });
      // An existing match (made elsewhere) assigned as the next one.
      const m2 = await createMatch(s.url, { discipline: 'rotation', players: ['Chen Wei', 'Dora Díaz'], countries: ['TW', 'ES'] });
      const assigned = await api(s.url, `${path()}/tables/table-1/assign`, as({ matchId: m2.id }));
      expect(assigned.status).toBe(200);
      expect(assigned.body.table).toMatchObject({ current: m1.id, next: m2.id, nextPlayers: ['Chen Wei', 'Dora Díaz'] });
      expect((await api(s.url, `${path()}/tables/tv-table/assign`, as({ matchId: m2.id }))).body.error).toMatchObject({ code: 'match-on-table', field: 'matchId' });
      expect((await api(s.url, `${path()}/tables/tv-table/assign`, as({ matchId: 'nosuchmatch' }))).body.error).toMatchObject({ code: 'not-found', field: 'matchId' });
      expect((await api(s.url, `${path()}/tables/nosuch/assign`, as({ matchId: m1.id }))).body.error).toMatchObject({ code: 'not-found', field: 'table' });
      expect((await api(s.url, `${path()}/tables/tv-table/start`, as())).body.error).toMatchObject({ code: 'no-next-match', field: 'table' });
      const bad = await api(s.url, `${path()}/tables/tv-table/matches`, as({ playerIds: ['p1', 'p1'] }));
      expect(bad.body.error).toMatchObject({ code: 'invalid-event', field: 'playerIds.1' });
      const badSetup = await api(s.url, `${path()}/tables/tv-table/matches`, as({ playerIds: ['p1', 'p3'], setup: { targets: [0, 5] } }));
      expect(badSetup.body.error).toMatchObject({ code: 'invalid-setup', field: 'setup.targets.0' });
      const started = await api(s.url, `${path()}/tables/table-1/start`, as());
      expect(started.body.table).toMatchObject({ current: m2.id, next: null, cards: { show: 'intro', matchId: m2.id, shownBy: 'auto' } });
      const view = (await api(s.url, path())).body;
      expect(view.matches.map((m: { id: string; startedAt: number | null }) => [m.id, m.startedAt !== null])).toEqual([[m1.id, true], [m2.id, true]]);
      expect(view.live[m2.id]).toMatchObject({ names: ['Chen Wei', 'Dora Díaz'], score: [0, 0], targets: [120, 120] });
      // A next match replaced before it started leaves the event; clearing the next one too.
      const q1 = await tableMatch(s.url, ev, 'tv-table', ['p1', 'p4']);
      const q2 = await tableMatch(s.url, ev, 'tv-table', ['p2', 'p3']);
      let ids = (await api(s.url, path())).body.matches.map((m: { id: string }) => m.id);
      expect(ids).toContain(q2.id);
      expect(ids).not.toContain(q1.id);
      const cleared = await api(s.url, `${path()}/tables/tv-table/next`, { method: 'DELETE', ...as() });
      expect(cleared.body.table.next).toBeNull();
      ids = cleared.body.event.matches.map((m: { id: string }) => m.id);
      expect(ids).not.toContain(q2.id);
    });

    it('undoes a Start next match: the match it took off unfinished is back on the table, the started one next again; only once', async () => {
      const ev2 = await createEvent(s.url);
      const p2 = `/api/events/${ev2.id}`;
      const as2 = (body: unknown = {}) => ({ token: ev2.organiserToken, body });
      const a = await tableMatch(s.url, ev2, 'tv-table', ['p1', 'p2'], true);
      await recordStep(s.url, a, WIN[0]!);
      const b = await tableMatch(s.url, ev2, 'tv-table', ['p3', 'p4']);
      expect((await api(s.url, `${p2}/tables/tv-table/undo-start`, as2())).body.error).toMatchObject({ code: 'nothing-to-undo', field: 'table' });
      const started = await api(s.url, `${p2}/tables/tv-table/start`, as2());
      expect(started.body.table).toMatchObject({ current: b.id, next: null });
      expect(started.body.event.tables.find((t: { id: string }) => t.id === 'tv-table').replaced).toMatchObject({ matchId: a.id });
      expect((await api(s.url, `${p2}/tables/tv-table/undo-start`, { body: {} })).body.error).toMatchObject({ code: 'unauthorized', field: 'token' });
      const undone = await api(s.url, `${p2}/tables/tv-table/undo-start`, as2());
      expect(undone.status).toBe(200);
      expect(undone.body.table).toMatchObject({ current: a.id, next: b.id, nextPlayers: ['Chen Wei', 'Dora Díaz'], cards: { show: 'none' } });
      const view = (await api(s.url, p2)).body;
      expect(view.tables.find((t: { id: string }) => t.id === 'tv-table').replaced).toBeUndefined();
      expect(view.matches.find((m: { id: string }) => m.id === b.id).startedAt).toBeNull();
      expect(view.live[a.id].score).toEqual((await api(s.url, `/api/matches/${a.id}`)).body.state.score);
      // Once: a second undo finds nothing to undo, and nothing changed.
      const again = await api(s.url, `${p2}/tables/tv-table/undo-start`, as2());
      expect(again.status).toBe(400);
      expect(again.body.error).toMatchObject({ code: 'nothing-to-undo', field: 'table' });
      expect((await api(s.url, p2)).body.version).toBe(view.version);
    });

    it('shows the intro when a match starts, takes it down at the first step, shows the summary at the win, and obeys the card buttons', async () => {
      const m = await tableMatch(s.url, ev, 'tv-table', ['p3', 'p4'], true);
      const table = async () => (await api(s.url, `${path()}/tables/tv-table`)).body;
      expect((await table()).cards).toMatchObject({ show: 'intro', matchId: m.id, shownBy: 'auto' });
      await recordStep(s.url, m, WIN[0]!);
      await expect.poll(async () => (await table()).cards.show).toBe('none');
      for (const step of WIN.slice(1)) await recordStep(s.url, m, step);
      await expect.poll(async () => (await table()).cards).toMatchObject({ show: 'summary', matchId: m.id, shownBy: 'auto' });
      // Undo takes the win back: the automatic summary leaves.
      await recordStep(s.url, m, { undo: true });
      await expect.poll(async () => (await table()).cards.show).toBe('none');
      // The buttons: plain POSTs, no body.
      const press = (action: string) => api(s.url, `${path()}/tables/tv-table/cards/${action}`, { method: 'POST', token: ev.organiserToken });
      expect((await press('intro')).body.table.cards).toMatchObject({ show: 'intro', shownBy: 'organiser' });
      expect((await press('toggle-intro')).body.table.cards.show).toBe('none');
      expect((await press('toggle-summary')).body.table.cards.show).toBe('summary');
      expect((await press('caption-toggle')).body.table.cards.captionHidden).toBe(true);
      expect((await press('caption-show')).body.table.cards.captionHidden).toBe(false);
      expect((await press('auto-off')).body.table.cards.auto).toBe(false);
      expect((await press('hide')).body.table.cards.show).toBe('none');
      expect((await press('dance')).body.error).toMatchObject({ code: 'invalid-request', field: 'action' });
      // With automatic cards off, the win shows nothing by itself.
      await recordStep(s.url, m, WIN.at(-1)!);
      await new Promise((r) => setTimeout(r, 300));
      expect((await table()).cards.show).toBe('none');
    });

    it('applies a change only at the expected version (stale with currentVersion otherwise)', async () => {
      const { version } = (await api(s.url, path())).body;
      const ok = await api(s.url, path(), { method: 'PATCH', ...as({ name: 'Friday League (final)', expectedVersion: version }) });
      expect(ok.body.event.version).toBe(version + 1);
      const late = await api(s.url, path(), { method: 'PATCH', ...as({ name: 'Other', expectedVersion: version }) });
      expect(late.status).toBe(409);
      expect(late.body).toMatchObject({ error: { code: 'stale', field: 'expectedVersion' }, currentVersion: version + 1 });
      expect((await api(s.url, path())).body.name).toBe('Friday League (final)');
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
suite('file', () => startTestServer({ dataDir }), () => startTestServer({ dataDir }));
