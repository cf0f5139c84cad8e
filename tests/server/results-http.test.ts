/**
 * The results and roster import routes (issue 27 §6) on a server over the real Redis:
 * - `results.csv` answers text/csv that csv-parse reads into one row per match (a won match with its score,
 *   winner, table, start and end in ISO 8601, and a sheet link that answers; a match in play); `results.json`
 *   the same facts; an unknown event 404;
 * - `players/import` adds the CSV's players (a header in any order, quoted commas, an empty cell left out);
 *   every kind of bad row is refused naming its row and column (`rows.<row>.<column>`), and nothing is imported
 *   (the event's version and roster unchanged); only the organiser imports.
 */
import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningServer } from '../../server/app';
import { createEvent, recordStep, stepsToWin, tableMatch } from '../helpers/events';
import { dropPrefix, requireRedis, testPrefix } from '../helpers/redis';
import { api, SETUP, startTestServer } from '../helpers/server';

const redis = await requireRedis();

describe.skipIf(!redis.available)('results and roster import over REST', () => {
  const prefix = testPrefix('results-http');
  let s: RunningServer;
  beforeAll(async () => {
    s = await startTestServer({ redisUrl: redis.url, redisPrefix: prefix });
  });
  afterAll(async () => {
    await s?.close();
    await dropPrefix(redis.url, prefix);
  });

  it('results.csv parses with a CSV library into one row per match; results.json says the same', async () => {
    const ev = await createEvent(s.url);
    const [t1, t2] = ev.event.tables.map((t) => t.id);
    const [a, b, c, d] = ev.event.roster.map((p) => p.id);
    const m1 = await tableMatch(s.url, ev, t1!, [a!, b!], true);
    await tableMatch(s.url, ev, t2!, [c!, d!], true);
    for (const step of stepsToWin({ ...SETUP, targets: [3, 3] })) await recordStep(s.url, m1, step);

    const res = await fetch(`${s.url}/api/events/${ev.id}/results.csv`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/csv/);
    const rows = parse(await res.text(), { columns: true }) as Record<string, string>[];
    expect(rows).toHaveLength(2);
    expect(rows[0]).toMatchObject({
      match_id: m1.id,
      player_a: 'Ann Andersen',
      player_b: 'Bob Brown',
      score_a: '3',
      score_b: '0',
      high_run_a: '3',
      winner: 'Ann Andersen',
      result: 'win',
      status: 'done',
      table: 'Table 1',
      round: '',
    });
    expect(new Date(rows[0]!.started_at!).toISOString()).toBe(rows[0]!.started_at);
    expect(Date.parse(rows[0]!.ended_at!)).toBeGreaterThanOrEqual(Date.parse(rows[0]!.started_at!));
    expect(rows[1]).toMatchObject({ player_a: 'Chen Wei', status: 'playing', winner: '', ended_at: '', table: 'TV table' });
    const sheet = await fetch(rows[0]!.sheet!);
    expect(sheet.status).toBe(200);
    expect(await sheet.text()).toMatch(/^player,name,inning/);

    const json = await api(s.url, `/api/events/${ev.id}/results.json`);
    expect(json.status).toBe(200);
    expect(json.body.matches.map((r: { matchId: string; status: string }) => [r.matchId, r.status])).toEqual([
      [m1.id, 'done'],
      [rows[1]!.match_id, 'playing'],
    ]);
    expect(json.body.highRun).toMatchObject({ player: 'Ann Andersen', value: 3, matchId: m1.id });
    expect(json.body.bestAverage).toMatchObject({ player: 'Ann Andersen', matchId: m1.id });
    expect((await api(s.url, '/api/events/nope/results.csv')).body.error).toMatchObject({ code: 'not-found', field: 'eventId' });
    expect((await api(s.url, '/api/events/nope/results.json')).status).toBe(404);
  });

  it('imports a roster from CSV; a bad row is refused naming its row and column, and nothing is imported', async () => {
    const ev = await createEvent(s.url, { name: 'Import', date: '2026-03-13', tables: ['Table 1'] });
    const imp = (csv: unknown, token: string | null = ev.organiserToken) =>
      api(s.url, `/api/events/${ev.id}/players/import`, { body: { csv }, ...(token ? { token } : {}) });
    const version = async () => (await api(s.url, `/api/events/${ev.id}`)).body as { version: number; roster: unknown[] };

    const bad: [string, string, string][] = [
      ['Ann,,DK,abc', 'rows.1.rating', 'row 1, column rating'],
      ['name,short,country,rating\nAnn,,DK,600\nBob,,XX,500', 'rows.3.country', 'row 3, column country'],
      ['Ann,Ann,DK\n,Bo,GB', 'rows.2.name', 'row 2, column name'],
      [`Ann\n${'x'.repeat(61)}`, 'rows.2.name', 'row 2, column name'],
      ['Ann,AnnAnnAnnAnnAnnAnn', 'rows.1.short', 'row 1, column short'],
      ['Ann,,DK,-5', 'rows.1.rating', 'row 1, column rating'],
      ['Ann,,DK,100001', 'rows.1.rating', 'row 1, column rating'],
      ['Ann,A,DK,600,extra', 'rows.1', 'row 1'],
      ['Ann\n"Bob, unclosed', 'rows.2', 'row 2'],
      ['rating,name\n600,Ann\nfast,Bob', 'rows.3.rating', 'row 3, column rating'],
      ['name,name\nAnn,Ann', 'rows.1.name', 'twice'],
      ['name,short\n', 'csv', 'no player'],
      ['Ann\n ann ', 'rows.2.name', 'on row 1 already'],
    ];
    for (const [csv, field, words] of bad) {
      const res = await imp(csv);
      expect(res.status, csv).toBe(400);
      expect(res.body.error.code, csv).toBe('invalid-roster');
      expect(res.body.error.field, csv).toBe(field);
      expect(res.body.error.message, csv).toContain(words);
      expect(res.body.error.message, csv).toContain('nothing was imported');
    }
    expect((await imp('')).body.error).toMatchObject({ code: 'invalid-roster', field: 'csv' });
    expect((await imp(5)).body.error).toMatchObject({ code: 'invalid-roster', field: 'csv' });
    expect((await imp('Ann', null)).status).toBe(401);
    expect((await imp('Ann', 'wrong')).status).toBe(403);
    expect(await version()).toMatchObject({ version: 0, roster: [] });

    const good = '\uFEFFcountry,name,rating,short\r\nDK,Ann Andersen,612,Ann\r\n\r\nGB-ENG,"Brown, Bob",,\r\n,"Chen ""The Cat"" Wei",  700 ,\r\n';
    const res = await imp(good);
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body).toMatchObject({ imported: 3, skipped: 0 });
    expect(res.body.event.roster).toEqual([
      { id: 'p1', name: 'Ann Andersen', short: 'Ann', country: 'DK', rating: 612 },
      { id: 'p2', name: 'Brown, Bob', country: 'GB-ENG' },
      { id: 'p3', name: 'Chen "The Cat" Wei', rating: 700 },
    ]);
    // Without a header: name, short, country, rating in that order; added after the players already there.
    const more = await imp('Dora Díaz,Dora,es,540');
    expect(more.body.event.roster.at(-1)).toEqual({ id: 'p4', name: 'Dora Díaz', short: 'Dora', country: 'ES', rating: 540 });
    // The same file again: every name is on the roster already, so nobody is added twice; the answer says so.
    const again = await imp(good);
    expect(again.status).toBe(201);
    expect(again.body).toMatchObject({ imported: 0, skipped: 3 });
    expect(again.body.event.roster).toHaveLength(4);
  });
});
