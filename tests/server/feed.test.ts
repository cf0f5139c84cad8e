/**
 * The tables' data feeds for title tools (`GET /api/events/<id>/tables/<table>/feed.json` and `feed.xml`)
 * against a server on the real Redis: one flat object of the table's current match; the XML parses (with
 * fast-xml-parser, as a title tool would) to the same fields; both change with a recorded shot, a won match
 * and a match switch; the shot clock's fields follow the clock (seconds shown, status, warning level, extensions
 * left); an empty table gives empty fields; an unknown event or table is 404 naming it.
 */
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningServer } from '../../server/app';
import { createEvent, EVENT, recordStep, stepsToWin, tableMatch, type CreatedEvent } from '../helpers/events';
import { dropPrefix, requireRedis, testPrefix } from '../helpers/redis';
import { api, legalSteps, startTestServer } from '../helpers/server';

const redis = await requireRedis();
const prefix = testPrefix('feed');
const WIN = stepsToWin({ ...EVENT.defaults, players: ['A', 'B'] });

/** The XML feed: its status, content type, and its `<table>` fields (every value as text, as XML has it). */
async function xmlFeed(url: string, path: string): Promise<{ status: number; type: string | null; fields: Record<string, string> }> {
  const res = await fetch(`${url}${path}`);
  const text = await res.text();
  expect(XMLValidator.validate(text)).toBe(true);
  const doc = new XMLParser({ parseTagValue: false }).parse(text) as { cuecast: { table: Record<string, string> } };
  return { status: res.status, type: res.headers.get('content-type'), fields: doc.cuecast.table };
}

/** The JSON feed as the XML one carries it: every value as text. */
const asText = (o: Record<string, unknown>) => Object.fromEntries(Object.entries(o).map(([k, v]) => [k, String(v)]));

describe.skipIf(!redis.available)('table data feed (Redis store)', () => {
  let s: RunningServer;
  let ev: CreatedEvent;
  const feed = (table: string, ext: 'json' | 'xml' = 'json') => `/api/events/${ev.id}/tables/${table}/feed.${ext}`;

  beforeAll(async () => {
    s = await startTestServer({ redisUrl: redis.url, redisPrefix: prefix });
    ev = await createEvent(s.url);
  });
  afterAll(async () => {
    await s?.close();
    await dropPrefix(redis.url, prefix);
  });

  it('gives the current match as one flat object, the same in XML, and follows a recorded shot, the win and the next match', async () => {
    const m = await tableMatch(s.url, ev, 'tv-table', ['p1', 'p2'], true);
    let res = await api(s.url, feed('tv-table'));
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      eventId: ev.id,
      eventName: 'Friday League',
      table: 'tv-table',
      tableName: 'TV table',
      matchId: m.id,
      discipline: '14-1',
      nameA: 'Ann Andersen',
      nameB: 'Bob Brown',
      shortA: 'Ann',
      shortB: 'Bob Brown',
      countryA: 'DK',
      countryB: 'GB-ENG',
      scoreA: 0,
      scoreB: 0,
      raceA: 3,
      raceB: 3,
      race: 3,
      atTable: 'A',
      atTableName: 'Ann Andersen',
      run: 0,
      highRunA: 0,
      highRunB: 0,
      foulsA: 0,
      foulsB: 0,
      rack: 1,
      winner: '',
      winnerName: '',
      card: 'intro',
      nextA: '',
      nextB: '',
      version: 0,
      clockStatus: '',
      clockSeconds: 0,
      clockWarning: '',
      extensionsA: 0,
      extensionsB: 0,
    });
    // Flat: nothing nested, for a title tool's columns.
    for (const v of Object.values(res.body)) expect(['string', 'number']).toContain(typeof v);
    let xml = await xmlFeed(s.url, feed('tv-table', 'xml'));
    expect(xml.status).toBe(200);
    expect(xml.type).toMatch(/^application\/xml/);
    expect(xml.fields).toEqual(asText(res.body));

    // A recorded shot changes both: A's safety break, B's miss, A pockets a ball.
    for (const step of WIN.slice(0, 3)) await recordStep(s.url, m, step);
    res = await api(s.url, feed('tv-table'));
    expect(res.body).toMatchObject({ scoreA: 1, scoreB: 0, run: 1, highRunA: 1, atTable: 'A', version: 3, card: 'none' });
    xml = await xmlFeed(s.url, feed('tv-table', 'xml'));
    expect(xml.fields).toEqual(asText(res.body));
    expect(xml.fields.scoreA).toBe('1');

    for (const step of WIN.slice(3)) await recordStep(s.url, m, step);
    await expect.poll(async () => (await api(s.url, feed('tv-table'))).body.card).toBe('summary');
    expect((await api(s.url, feed('tv-table'))).body).toMatchObject({ scoreA: 3, winner: 'A', winnerName: 'Ann Andersen', atTable: '', atTableName: '' });

    // The next match assigned, then started: the feed follows the table.
    const m2 = await tableMatch(s.url, ev, 'tv-table', ['p3', 'p4']);
    expect((await api(s.url, feed('tv-table'))).body).toMatchObject({ nextA: 'Chen Wei', nextB: 'Dora Díaz', matchId: m.id });
    await api(s.url, `/api/events/${ev.id}/tables/tv-table/start`, { token: ev.organiserToken, body: {} });
    expect((await api(s.url, feed('tv-table'))).body).toMatchObject({
      matchId: m2.id,
      nameA: 'Chen Wei',
      shortA: 'Chen',
      countryB: 'ES',
      scoreA: 0,
      winner: '',
      nextA: '',
    });
  });

  it('carries the shot clock: status, the seconds shown, the warning level and the extensions left, in JSON and XML', async () => {
    const own = await createEvent(s.url);
    const path = (ext: 'json' | 'xml') => `/api/events/${own.id}/tables/table-1/feed.${ext}`;
    const m = await tableMatch(s.url, own, 'table-1', ['p1', 'p2'], true);
    const clockFields = async () => {
      const b = (await api(s.url, path('json'))).body;
      return { clockStatus: b.clockStatus, clockSeconds: b.clockSeconds, clockWarning: b.clockWarning, extensionsA: b.extensionsA, extensionsB: b.extensionsB };
    };
    expect(await clockFields()).toEqual({ clockStatus: '', clockSeconds: 0, clockWarning: '', extensionsA: 0, extensionsB: 0 });

    // Pro preset: no clock for the break (D-32a), 60 s for the first shot after it, one extension per player per rack, warning from 10 s.
    let res = await api(s.url, `/api/matches/${m.id}/clock`, { method: 'PUT', token: m.scorerToken, body: { preset: 'pro' } });
    expect(res.status).toBe(200);
    expect(await clockFields()).toEqual({ clockStatus: 'idle', clockSeconds: 0, clockWarning: 'none', extensionsA: 1, extensionsB: 1 });
    const setup = (await api(s.url, `/api/matches/${m.id}`)).body.setup;
    expect((await api(s.url, `/api/matches/${m.id}/steps`, { token: m.scorerToken, body: { stepId: 'b1', step: legalSteps(1, setup)[0] } })).status).toBe(201);
    await expect.poll(clockFields).toEqual({ clockStatus: 'idle', clockSeconds: 60, clockWarning: 'none', extensionsA: 1, extensionsB: 1 });

    // Started by the organiser for the table, then paused: the seconds stay where the pause left them.
    res = await api(s.url, `/api/events/${own.id}/tables/table-1/clock/start`, { token: own.organiserToken, body: {} });
    expect(res.status).toBe(200);
    const running = await clockFields();
    expect(running.clockStatus).toBe('running');
    expect(running.clockSeconds).toBeGreaterThan(0);
    expect(running.clockSeconds).toBeLessThanOrEqual(60);
    await api(s.url, `/api/events/${own.id}/tables/table-1/clock/pause`, { token: own.organiserToken, body: {} });
    await api(s.url, `/api/events/${own.id}/tables/table-1/clock/extension`, { token: own.organiserToken, body: {} });
    const paused = await clockFields();
    expect(paused).toMatchObject({ clockStatus: 'paused', extensionsA: 0, extensionsB: 1 });
    expect(paused.clockSeconds).toBeGreaterThan(30);
    expect(paused.clockSeconds).toBeLessThanOrEqual(90);
    const xml = await xmlFeed(s.url, path('xml'));
    expect(xml.fields).toMatchObject(asText(paused));

    // Settings whose warning starts at 45 s and last warning at 20 s: an idle 30 s clock is in the warning (amber);
    // with the last warning from 30 s it is urgent (red).
    const settings = {
      shotSeconds: 30,
      firstShotSeconds: 30,
      pushOutSeconds: 30,
      extensionSeconds: 0,
      extensionsPerPlayer: 0,
      extensionPeriod: { per: 'match' },
      warningSeconds: 45,
      urgentSeconds: 20,
      showFromSeconds: null,
      autoStart: false,
      matchClock: { kind: 'off' },
    };
    res = await api(s.url, `/api/matches/${m.id}/clock`, { method: 'PUT', token: m.scorerToken, body: { settings } });
    expect(res.status).toBe(200);
    expect(await clockFields()).toEqual({ clockStatus: 'idle', clockSeconds: 30, clockWarning: 'warning', extensionsA: 0, extensionsB: 0 });
    await api(s.url, `/api/matches/${m.id}/clock`, { method: 'PUT', token: m.scorerToken, body: { settings: { ...settings, urgentSeconds: 30 } } });
    expect((await clockFields()).clockWarning).toBe('urgent');

    // Turned off: the empty fields again.
    await api(s.url, `/api/matches/${m.id}/clock`, { method: 'PUT', token: m.scorerToken, body: { preset: 'off' } });
    expect(await clockFields()).toEqual({ clockStatus: '', clockSeconds: 0, clockWarning: '', extensionsA: 0, extensionsB: 0 });
  });

  it('has empty fields for a table without a match, escapes names in XML, is never cached, and refuses an unknown event or table by name', async () => {
    const res = await fetch(`${s.url}${feed('table-1')}`);
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect(await res.json()).toMatchObject({ matchId: '', nameA: '', scoreA: 0, race: '', card: 'none', version: 0 });
    const other = await createEvent(s.url, { ...EVENT, roster: [{ name: 'Tom & "Jerry" <O\'Neil>' }, { name: 'Zoë' }] });
    await tableMatch(s.url, other, 'table-1', ['p1', 'p2'], true);
    const xml = await xmlFeed(s.url, `/api/events/${other.id}/tables/table-1/feed.xml`);
    expect(xml.fields.nameA).toBe('Tom & "Jerry" <O\'Neil>');
    expect(xml.fields.nameB).toBe('Zoë');
    const noTable = await api(s.url, feed('nosuch'));
    expect(noTable.status).toBe(404);
    expect(noTable.body.error).toMatchObject({ code: 'not-found', field: 'table' });
    const noEvent = await api(s.url, '/api/events/nosuchevent/tables/tv-table/feed.xml');
    expect(noEvent.status).toBe(404);
    expect(noEvent.body.error).toMatchObject({ code: 'not-found', field: 'eventId' });
  });
});
