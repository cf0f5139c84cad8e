/**
 * An event's results (issue 27 §6) at the service level (the services over the in-memory stores, a fake clock):
 * an 8-player single elimination on 2 tables with autopilot, one first-round match a walkover, the rest played
 * to the end by the engine's steps. The results have one row per match — played ones with their sheet, round,
 * place, score, innings, high runs, average, winner, table, start and end; the walkover without a match — the
 * draw's standings and champion, the event's high run and best average; `results.csv` parses with csv-parse into
 * the same rows. Before any match is won the results say so (nothing decided, no best figures).
 */
import { parse } from 'csv-parse/sync';
import { describe, expect, it } from 'vitest';
import { ResultsService } from '../../server/results/service';
import { resultsCsv } from '../../server/transport/http/csv';
import type { DrawInfo } from '../../server/draws/service';
import type { EventResults } from '../../shared/protocol/results';
import { stepsToWin } from '../helpers/events';
import { captureTokens, quiet } from '../helpers/draws';
import { recordOk, services } from '../helpers/services';

/** Let the reactions and the queued draw changes finish. */

describe('event results', () => {
  it('one row per match (a walkover too), the standings, the champion, the high run and best average; results.csv parses into the same rows', async () => {
    const s = services();
    const results = new ResultsService({ events: s.events, matches: s.matches, draw: (id) => s.draws.get(id) });
    const tokens = captureTokens(s);
    const roster = Array.from({ length: 8 }, (_, i) => ({ name: `Player ${i + 1}`, rating: 900 - i }));
    const created = await s.events.create({
      name: 'Open',
      date: '2026-03-13',
      defaults: { discipline: '14-1', ruleset: 'nba', targets: [3, 3] },
      tables: ['Table 1', 'TV table'],
      roster,
    });
    const ev = { id: created.event.id, token: created.organiserToken };
    const made = await s.draws.create(ev.id, ev.token, { format: 'single', seeding: 'rating' });
    expect(made.ok, JSON.stringify(made)).toBe(true);
    const info = (made as { draw: DrawInfo }).draw;
    const first = info.draw.matches.find((m) => m.id === 'R1-1')!;

    const before = (await results.results(ev.id))!;
    expect(before).toMatchObject({ name: 'Open', format: 'single', champion: null, finished: false, matches: [], highRun: null, bestAverage: null });
    expect(before.standings).toHaveLength(8);

    // R1-1 by walkover (seed 8 did not come), then autopilot plays the rest.
    expect((await s.draws.result(ev.id, ev.token, { match: 'R1-1', winner: first.players[0], kind: 'walkover' })).ok).toBe(true);
    expect((await s.draws.autopilot(ev.id, ev.token, { on: true })).ok).toBe(true);
    for (let guard = 0; guard < 50; guard++) {
      await quiet(s, ev.id);
      const view = (await s.events.view(ev.id))!;
      const live = view.tables.map((t) => t.current).filter((m): m is string => m !== null && view.live[m]?.winner === null);
      if (live.length === 0) break;
      const cur = (await s.matches.currentState(live[0]!))!;
      s.clock.advance(60_000);
      for (const step of stepsToWin(cur.setup)) await recordOk(s.matches, { id: live[0]!, scorerToken: tokens.get(live[0]!)! }, step);
    }
    await quiet(s, ev.id);

    const out: EventResults = (await results.results(ev.id))!;
    const draw = ((await s.draws.get(ev.id)) as { draw: DrawInfo }).draw.draw;
    const name = (id: string | null) => roster[Number(id!.slice(1)) - 1]!.name;
    expect(out.finished).toBe(true);
    expect(out.champion).toBe(name(draw.champion));
    expect(out.standings[0]).toMatchObject({ place: 1, player: out.champion, losses: 0 });
    expect(out.standings.map((r) => r.place)).toEqual([1, 2, 3, 3, 5, 5, 5, 5]);
    expect(out.matches).toHaveLength(7);

    const played = out.matches.filter((r) => r.matchId !== null);
    expect(played).toHaveLength(6);
    for (const r of played) {
      const dm = draw.matches.find((m) => m.matchId === r.matchId)!;
      expect(r).toMatchObject({
        drawMatch: dm.id,
        round: dm.roundName,
        place: dm.place,
        status: 'done',
        kind: 'win',
        players: [name(dm.players[0]!), name(dm.players[1]!)],
      });
      expect(r.winner).toBe(name(dm.result!.winner));
      expect(r.score).toEqual([3, 0]);
      expect(r.highRun).toEqual([3, 0]);
      expect(r.innings![0]).toBeGreaterThan(0);
      expect(r.average![0]).toBeGreaterThan(0);
      expect(['Table 1', 'TV table']).toContain(r.table);
      expect(r.endedAt).toBeGreaterThanOrEqual(r.startedAt!);
    }
    const wo = out.matches.find((r) => r.drawMatch === 'R1-1')!;
    expect(wo).toMatchObject({ matchId: null, kind: 'walkover', status: 'done', score: null, table: null, winner: name(first.players[0]), place: first.place });
    expect(out.highRun).toMatchObject({ value: 3 });
    expect(played.map((r) => r.matchId)).toContain(out.highRun!.matchId);
    const averages = played.flatMap((r) => r.average!);
    expect(out.bestAverage!.value).toBe(Math.max(...averages));

    // results.csv: one row per match, parsed by a CSV library, the same facts as the JSON.
    const rows = parse(resultsCsv(out, 'https://cue.example'), { columns: true }) as Record<string, string>[];
    expect(rows).toHaveLength(out.matches.length);
    rows.forEach((row, i) => {
      const r = out.matches[i]!;
      expect(row).toMatchObject({
        round: r.round ?? '',
        place: r.place ?? '',
        draw_match: r.drawMatch ?? '',
        match_id: r.matchId ?? '',
        player_a: r.players[0],
        player_b: r.players[1],
        score_a: r.score ? String(r.score[0]) : '',
        innings_a: r.innings ? String(r.innings[0]) : '',
        high_run_a: r.highRun ? String(r.highRun[0]) : '',
        winner: r.winner ?? '',
        result: r.kind ?? '',
        table: r.table ?? '',
        started_at: r.startedAt === null ? '' : new Date(r.startedAt).toISOString(),
        ended_at: r.endedAt === null ? '' : new Date(r.endedAt).toISOString(),
        sheet: r.matchId ? `https://cue.example/api/matches/${r.matchId}/sheet.csv` : '',
      });
    });
  });

  it('an event without a draw: its table matches, standings by matches won; a name with a comma, a quote or a formula survives the CSV', async () => {
    const s = services();
    const results = new ResultsService({ events: s.events, matches: s.matches, draw: (id) => s.draws.get(id) });
    const created = await s.events.create({
      name: 'League night',
      date: '2026-03-13',
      defaults: { discipline: '14-1', ruleset: 'nba', targets: [3, 3] },
      tables: ['Table 1', 'Table 2'],
      roster: [{ name: 'Smith, "Jo"' }, { name: '=SUM(A1)' }, { name: 'Cat' }, { name: 'Dan' }],
    });
    const ev = created.event;
    const [a, b, c, d] = ev.roster.map((p) => p.id);
    const m1 = await s.events.createTableMatch(ev.id, created.organiserToken, 'table-1', { playerIds: [a, b], start: true });
    const m2 = await s.events.createTableMatch(ev.id, created.organiserToken, 'table-2', { playerIds: [c, d], start: true });
    if (!m1.ok || !m2.ok) throw new Error('table matches not made');
    for (const step of stepsToWin((await s.matches.currentState(m1.match.id))!.setup)) await recordOk(s.matches, m1.match, step);
    await s.reactions.settled();
    const out = (await results.results(ev.id))!;
    expect(out).toMatchObject({ format: null, champion: null, finished: false });
    expect(out.matches.map((r) => [r.matchId, r.status, r.winner, r.round])).toEqual([
      [m1.match.id, 'done', 'Smith, "Jo"', null],
      [m2.match.id, 'playing', null, null],
    ]);
    expect(out.standings[0]).toMatchObject({ player: 'Smith, "Jo"', wins: 1, losses: 0, place: null });
    const rows = parse(resultsCsv(out, ''), { columns: true }) as Record<string, string>[];
    expect(rows[0]!.player_a).toBe('Smith, "Jo"');
    expect(rows[0]!.player_b).toBe("'=SUM(A1)"); // a spreadsheet never runs it
    expect(rows[1]!.status).toBe('playing');
    expect(await results.results('no-such-event')).toBeNull();
  });
});
