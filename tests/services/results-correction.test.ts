/**
 * One source for a match's result (issue 27 §3, §6), through the services over the in-memory stores and a fake
 * clock: a match scored to a win at its table and then corrected by the organiser shows the corrected result in
 * the draw, results.json, results.csv and the webhooks alike (the sheet keeps what was played).
 */
import { parse } from 'csv-parse/sync';
import { describe, expect, it } from 'vitest';
import { resultsCsv } from '../../server/transport/http/csv';
import { stepsToWin } from '../helpers/events';
import { drawOf, quiet } from '../helpers/draws';
import { recordOk, services } from '../helpers/services';

describe('a corrected result', () => {
  it('a match won at the table, then corrected by the organiser: the draw, results.json, results.csv and the webhook agree', async () => {
    const s = services();
    const hooks: { kind: string; data: Record<string, unknown> }[] = [];
    s.webhooks.emit = (_eventId, kind, data) => void hooks.push({ kind, data });
    const created = await s.events.create({
      name: 'Corrections',
      date: '2026-03-13',
      defaults: { discipline: '14-1', ruleset: 'nba', targets: [3, 3] },
      tables: ['Table 1'],
      roster: ['Ann', 'Bob', 'Cat', 'Dan'].map((name, i) => ({ name, rating: 900 - i })),
    });
    const ev = { id: created.event.id, token: created.organiserToken };
    const name = (id: string | null | undefined) => created.event.roster.find((p) => p.id === id)!.name;
    expect((await s.draws.create(ev.id, ev.token, { format: 'single', seeding: 'rating', autopilot: true })).ok).toBe(true);
    await quiet(s, ev.id);
    const tablet = ((await s.events.issueTableToken(ev.id, ev.token, 'table-1')) as { scorerToken: string }).scorerToken;

    // The table's match is won by its player A, 3–0, at the table.
    const first = (await drawOf(s, ev.id)).draw.matches.find((m) => m.status === 'playing')!;
    for (const step of stepsToWin((await s.matches.currentState(first.matchId!))!.setup))
      await recordOk(s.matches, { id: first.matchId!, scorerToken: tablet }, step);
    await quiet(s, ev.id);
    expect((await drawOf(s, ev.id)).draw.matches.find((m) => m.id === first.id)).toMatchObject({
      status: 'done',
      result: { winner: first.players[0], kind: 'win', score: [3, 0] },
    });
    expect((await s.results.results(ev.id))!.matches.find((r) => r.matchId === first.matchId)).toMatchObject({ winner: name(first.players[0]) });

    // The organiser corrects it: player B won 3–2 (the scorer got the players the wrong way round).
    const corrected = await s.draws.result(ev.id, ev.token, { match: first.id, winner: first.players[1], kind: 'win', score: [2, 3] });
    expect(corrected.ok, JSON.stringify(corrected)).toBe(true);
    await quiet(s, ev.id);

    const draw = await drawOf(s, ev.id);
    const dm = draw.draw.matches.find((m) => m.id === first.id)!;
    expect(dm).toMatchObject({ status: 'done', matchId: first.matchId, result: { winner: first.players[1], kind: 'win', score: [2, 3] } });
    const out = (await s.results.results(ev.id))!;
    const row = out.matches.find((r) => r.matchId === first.matchId)!;
    expect(row).toMatchObject({ drawMatch: first.id, status: 'done', kind: 'win', winner: name(first.players[1]), score: [2, 3] });
    // The sheet's average was for 3–0: not shown beside the corrected score.
    expect(row.average).toBeNull();
    expect(out.matches.filter((r) => r.drawMatch === first.id)).toHaveLength(1);
    expect(out.standings.find((r) => r.player === name(first.players[0]))).toMatchObject({ losses: 1, out: true });
    const csv = parse(resultsCsv(out, 'https://cue.example'), { columns: true }) as Record<string, string>[];
    expect(csv.find((r) => r.match_id === first.matchId)).toMatchObject({
      draw_match: first.id,
      winner: name(first.players[1]),
      result: 'win',
      score_a: '2',
      score_b: '3',
      status: 'done',
    });

    // The webhooks heard the table's win, then the correction with the draw's result.
    const finished = hooks.filter((h) => h.kind === 'match.finished' && h.data.matchId === first.matchId).map((h) => h.data);
    expect(finished).toHaveLength(2);
    expect(finished[0]).toMatchObject({ winner: name(first.players[0]), score: [3, 0] });
    expect(finished[1]).toMatchObject({ drawMatch: first.id, winner: name(first.players[1]), kind: 'win', score: [2, 3], corrected: true });
  });

  it('a walkover the organiser records without a table is announced too (corrected: false)', async () => {
    const s = services();
    const hooks: { kind: string; data: Record<string, unknown> }[] = [];
    s.webhooks.emit = (_eventId, kind, data) => void hooks.push({ kind, data });
    const created = await s.events.create({
      name: 'Walkover',
      date: '2026-03-13',
      defaults: { discipline: '14-1', ruleset: 'nba', targets: [3, 3] },
      tables: ['Table 1'],
      roster: [{ name: 'Ann' }, { name: 'Bob' }],
    });
    const ev = { id: created.event.id, token: created.organiserToken };
    const made = await s.draws.create(ev.id, ev.token, { format: 'single', seeding: 'order' });
    if (!made.ok) throw new Error(made.error.message);
    const only = made.draw.draw.matches[0]!;
    const a = created.event.roster[0]!.id;
    expect(only.players).toEqual([a, created.event.roster[1]!.id]);
    expect((await s.draws.result(ev.id, ev.token, { match: only.id, winner: a, kind: 'walkover' })).ok).toBe(true);
    await quiet(s, ev.id);
    expect(hooks.filter((h) => h.kind === 'match.finished').map((h) => h.data)).toEqual([
      {
        matchId: null,
        drawMatch: only.id,
        table: null,
        players: ['Ann', 'Bob'],
        winner: 'Ann',
        kind: 'walkover',
        score: null,
        innings: null,
        highRun: null,
        corrected: false,
      },
    ]);
  });
});
