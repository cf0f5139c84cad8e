/**
 * A match the organiser decides while it is on its table (issue 27 §3), through the services (match, event and
 * draw services over the in-memory stores, a fake clock, no sockets): a result, a walkover or a retirement recorded
 * for a match being played takes it off its table at once (the table is free and autopilot puts the next ready
 * match on it), and neither the table's scorer token nor the match's own scorer token can record for it any more
 * (`match-over`, saying why), so the draw, the results and the webhooks never disagree about its winner. A
 * correction that resets a match being played takes that match off its table the same way.
 */
import { describe, expect, it } from 'vitest';
import { ResultsService } from '../../server/results/service';
import type { ResultKind } from '../../shared/draw/types';
import { stepsToWin } from '../helpers/events';
import { captureTokens, drawOf, quiet } from '../helpers/draws';
import { recordOk, services, type Services } from '../helpers/services';

/** An event with 8 rated players (p1 the best) and two tables, 14-1 to 3; every match's own scorer token kept. */
async function eventOf(s: Services) {
  const tokens = captureTokens(s);
  const created = await s.events.create({
    name: 'Decided',
    date: '2026-03-13',
    defaults: { discipline: '14-1', ruleset: 'nba', targets: [3, 3] },
    tables: ['Table 1', 'Table 2'],
    roster: Array.from({ length: 8 }, (_, i) => ({ name: `Player ${i + 1}`, rating: 900 - i })),
  });
  const id = created.event.id;
  const token = created.organiserToken;
  const made = await s.draws.create(id, token, { format: 'single', seeding: 'rating', autopilot: true });
  expect(made.ok, JSON.stringify(made)).toBe(true);
  await quiet(s, id);
  const tablets = new Map<string, string>();
  for (const t of ['table-1', 'table-2']) tablets.set(t, ((await s.events.issueTableToken(id, token, t)) as { scorerToken: string }).scorerToken);
  return { id, token, tokens, tablets };
}

async function currentOf(s: Services, eventId: string, table: string): Promise<string | null> {
  return (await s.events.view(eventId))!.tables.find((t) => t.id === table)!.current;
}

describe('a match decided by the organiser while on its table', () => {
  for (const kind of ['retired', 'walkover', 'win'] as ResultKind[]) {
    it(`${kind}: the match leaves its table at once, autopilot refills the table, and no scorer token records for it any more`, async () => {
      const s = services();
      const ev = await eventOf(s);
      const onTable = (await currentOf(s, ev.id, 'table-1'))!;
      const d0 = await drawOf(s, ev.id);
      const dm = d0.draw.matches.find((m) => m.matchId === onTable)!;
      expect(dm.status).toBe('playing');
      const nextReady = d0.draw.ready[0]!;
      // Played a little at the table first (the break).
      const setup = (await s.matches.currentState(onTable))!.setup;
      const steps = stepsToWin(setup);
      const breakShot = await s.matches.record(onTable, ev.tablets.get('table-1')!, { stepId: 'break-1', step: steps[0]! });
      expect(breakShot.ok, JSON.stringify(breakShot)).toBe(true);
      await s.reactions.settled();

      // The organiser decides it for player B (who was losing at the table).
      const winner = dm.players[1]!;
      const body = kind === 'win' ? { match: dm.id, winner, kind, score: [1, 3] } : { match: dm.id, winner, kind };
      const res = await s.draws.result(ev.id, ev.token, body);
      expect(res.ok, JSON.stringify(res)).toBe(true);
      await quiet(s, ev.id);

      // The table is free of it and took the next ready match; the draw has the result.
      const d1 = await drawOf(s, ev.id);
      expect(d1.draw.matches.find((m) => m.id === dm.id)).toMatchObject({ status: 'done', result: { winner, kind } });
      const now = await currentOf(s, ev.id, 'table-1');
      expect(now).not.toBe(onTable);
      expect(d1.draw.matches.find((m) => m.id === nextReady)).toMatchObject({ status: 'playing', table: 'table-1', matchId: now });
      const listed = (await s.events.view(ev.id))!.matches.find((m) => m.id === onTable)!;
      expect(listed.closed).toMatchObject({ by: 'result' });

      // Neither the table's token nor the match's own token records for it any more.
      for (const token of [ev.tablets.get('table-1')!, ev.tokens.get(onTable)!]) {
        const refused = await s.matches.record(onTable, token, { stepId: `late-${token.slice(0, 6)}`, step: steps[1]! });
        expect(refused).toMatchObject({ ok: false, error: { code: 'match-over', field: 'matchId' } });
        expect(refused.ok || refused.error.message).toMatch(/organiser recorded its result/);
      }
      expect((await s.matches.currentState(onTable))!.version).toBe(1);
      // A retry of the step the match already holds (its first answer lost) is still answered as recorded, with
      // either token: nothing that was recorded is reported refused.
      for (const token of [ev.tablets.get('table-1')!, ev.tokens.get(onTable)!])
        expect(await s.matches.record(onTable, token, { stepId: 'break-1', step: steps[0]! })).toMatchObject({ ok: true, duplicate: true, version: 1 });
      // The table's token scores the table's new match.
      await recordOk(s.matches, { id: now!, scorerToken: ev.tablets.get('table-1')! }, stepsToWin((await s.matches.currentState(now!))!.setup)[0]!);

      // Undo assignment says why there is nothing to undo.
      const undo = await s.draws.unassign(ev.id, ev.token, { match: dm.id });
      expect(undo).toMatchObject({ ok: false, error: { code: 'not-ready', field: 'match' } });
      expect(undo.ok || undo.error.message).toMatch(/decided/);

      // The results agree with the draw.
      const results = new ResultsService({ events: s.events, matches: s.matches, draw: (id) => s.draws.get(id) });
      const row = (await results.results(ev.id))!.matches.find((r) => r.matchId === onTable)!;
      expect(row).toMatchObject({ drawMatch: dm.id, status: 'done', kind, winner: `Player ${Number(winner.slice(1))}` });
    });
  }

  it('autopilot off: the table is freed (no match on it) and waits', async () => {
    const s = services();
    const ev = await eventOf(s);
    expect((await s.draws.autopilot(ev.id, ev.token, { on: false })).ok).toBe(true);
    const onTable = (await currentOf(s, ev.id, 'table-2'))!;
    const dm = (await drawOf(s, ev.id)).draw.matches.find((m) => m.matchId === onTable)!;
    expect((await s.draws.result(ev.id, ev.token, { match: dm.id, winner: dm.players[0], kind: 'walkover' })).ok).toBe(true);
    await quiet(s, ev.id);
    expect(await currentOf(s, ev.id, 'table-2')).toBeNull();
    expect(await s.matches.record(onTable, ev.tokens.get(onTable)!, { stepId: 'off-1', step: { undo: true } })).toMatchObject({
      ok: false,
      error: { code: 'match-over' },
    });
  });

  it('a correction that resets a match being played takes that match off its table too', async () => {
    const s = services();
    const ev = await eventOf(s);
    // Every first-round match decided by the organiser; the semi-finals go on the tables.
    const d0 = await drawOf(s, ev.id);
    const firsts = d0.draw.matches.filter((m) => m.round === 'R1');
    const r1 = firsts.find((m) => m.id === 'R1-1')!;
    for (const m of firsts) {
      expect((await s.draws.result(ev.id, ev.token, { match: m.id, winner: m.players[0], kind: 'walkover' })).ok).toBe(true);
      await quiet(s, ev.id);
    }
    const semi = (await drawOf(s, ev.id)).draw.matches.find((m) => m.id === 'R2-1')!;
    expect(semi.status).toBe('playing');
    const table = semi.table!;
    expect(await currentOf(s, ev.id, table)).toBe(semi.matchId);
    // Corrected: R1-1 goes to the other player; R2-1 is reset and leaves its table.
    const corrected = await s.draws.result(ev.id, ev.token, { match: 'R1-1', winner: r1.players[1], kind: 'walkover', reset: ['R2-1'] });
    expect(corrected.ok, JSON.stringify(corrected)).toBe(true);
    await quiet(s, ev.id);
    expect(await currentOf(s, ev.id, table)).not.toBe(semi.matchId);
    const listed = (await s.events.view(ev.id))!.matches.find((m) => m.id === semi.matchId)!;
    expect(listed.closed).toMatchObject({ by: 'reset' });
    const refused = await s.matches.record(semi.matchId!, ev.tablets.get(table)!, { stepId: 'reset-1', step: { undo: true } });
    expect(refused).toMatchObject({ ok: false, error: { code: 'match-over' } });
    expect(refused.ok || refused.error.message).toMatch(/correction/);
  });
});
