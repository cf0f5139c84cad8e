/**
 * Autopilot overrides (issue 27 §4), through the services (match, event and draw services over the in-memory
 * stores, a fake clock, no sockets): a player marked absent (the draw waits for them, or walks them over, as the
 * organiser sets), two tables swapped (the event's tables, the draw and the tables' scorer tokens follow), an
 * assignment undone (the match is ready again, its table held until released; refused once a shot is recorded).
 * A player is never on two tables. Bad input names the field and changes nothing.
 */
import { describe, expect, it } from 'vitest';
import type { DrawInfo } from '../../server/draws/service';
import type { DrawMatchView } from '../../shared/draw/state';
import { stepsToWin } from '../helpers/events';
import { drawOf, quiet } from '../helpers/draws';
import { recordOk, services, type Services } from '../helpers/services';

/** An event with 8 rated players (p1 the best) and two tables; 14-1 to 3. */
async function eventOf(s: Services) {
  const created = await s.events.create({
    name: 'Overrides',
    date: '2026-03-13',
    defaults: { discipline: '14-1', ruleset: 'nba', targets: [3, 3] },
    tables: ['Table 1', 'Table 2'],
    roster: Array.from({ length: 8 }, (_, i) => ({ name: `Player ${i + 1}`, rating: 900 - i })),
  });
  return { id: created.event.id, token: created.organiserToken, players: created.event.roster.map((p) => p.id) };
}

const matchOf = (d: DrawInfo, player: string): DrawMatchView => d.draw.matches.find((m) => m.round === 'R1' && m.players.includes(player))!;

/** The tables' current matches, and a check that no player is on two tables. */
async function tables(s: Services, eventId: string): Promise<Record<string, string | null>> {
  const view = (await s.events.view(eventId))!;
  const names = view.tables.flatMap((t) => (t.current && view.live[t.current]?.winner === null ? view.live[t.current]!.names : []));
  expect(new Set(names).size, `a player on two tables: ${names.join(', ')}`).toBe(names.length);
  return Object.fromEntries(view.tables.map((t) => [t.id, t.current]));
}

/** Win match `matchId` for player A with the table's scorer token. */
async function win(s: Services, matchId: string, token: string) {
  const cur = (await s.matches.currentState(matchId))!;
  for (const step of stepsToWin(cur.setup).slice(cur.version)) await recordOk(s.matches, { id: matchId, scorerToken: token }, step);
}

describe('autopilot overrides', () => {
  it('an absent player: the draw waits (their match is passed over while a table is free) until they are back', async () => {
    const s = services();
    const ev = await eventOf(s);
    const [p1] = ev.players as [string];
    expect((await s.draws.create(ev.id, ev.token, { format: 'single', seeding: 'rating' })).ok).toBe(true);
    const marked = await s.draws.absent(ev.id, ev.token, { player: p1, absent: true });
    expect(marked.ok && marked.draw.settings.absent).toEqual([p1]);
    expect((await s.draws.autopilot(ev.id, ev.token, { on: true })).ok).toBe(true);
    await quiet(s, ev.id);
    const waiting = matchOf(await drawOf(s, ev.id), p1);
    expect(waiting.status).toBe('ready');
    const tokens = await Promise.all(
      ['table-1', 'table-2'].map(async (t) => ((await s.events.issueTableToken(ev.id, ev.token, t)) as { scorerToken: string }).scorerToken),
    );
    // Both tables play other R1 matches; when they are won, the last other R1 match goes on, and then a table
    // stays free rather than take p1's match.
    for (let round = 0; round < 2; round++) {
      const on = await tables(s, ev.id);
      for (const [i, t] of ['table-1', 'table-2'].entries()) {
        const cur = on[t];
        if (cur && (await s.matches.currentState(cur))!.state.winner === null) await win(s, cur, tokens[i]!);
      }
      await quiet(s, ev.id);
    }
    let d = await drawOf(s, ev.id);
    expect(d.draw.matches.filter((m) => m.round === 'R1' && m.status === 'done')).toHaveLength(3);
    expect(matchOf(d, p1).status).toBe('ready');
    // R2-2 (the winners of the other half) is on a table; the other table is free and waits for p1.
    expect(d.draw.matches.filter((m) => m.status === 'playing').map((m) => m.round)).toEqual(['R2']);
    // Back: p1's match goes on the free table by itself.
    expect((await s.draws.absent(ev.id, ev.token, { player: p1, absent: false })).ok).toBe(true);
    await quiet(s, ev.id);
    d = await drawOf(s, ev.id);
    expect(matchOf(d, p1).status).toBe('playing');
    await tables(s, ev.id);
  });

  it('an absent player with the policy walkover: the opponent goes through without playing', async () => {
    const s = services();
    const ev = await eventOf(s);
    const [p1] = ev.players as [string];
    expect((await s.draws.create(ev.id, ev.token, { format: 'single', seeding: 'rating' })).ok).toBe(true);
    expect((await s.draws.absentPolicy(ev.id, ev.token, { policy: 'walkover' })).ok).toBe(true);
    expect((await s.draws.absent(ev.id, ev.token, { player: p1, absent: true })).ok).toBe(true);
    await quiet(s, ev.id);
    const d = await drawOf(s, ev.id);
    const m = matchOf(d, p1);
    const opponent = m.players.find((p) => p !== p1)!;
    expect(m).toMatchObject({ status: 'done', result: { winner: opponent, kind: 'walkover' } });
    expect(m.matchId).toBeUndefined();
    expect(d.draw.standings.find((r) => r.player === p1)).toMatchObject({ out: true, losses: 1 });
    // Autopilot was off: nothing went on a table; the walkover alone was recorded.
    expect(Object.values(await tables(s, ev.id))).toEqual([null, null]);
    expect((await s.draws.entries(ev.id)).filter((e) => e.t !== 'race')).toEqual([{ t: 'result', match: m.id, winner: opponent, kind: 'walkover' }]);
  });

  it('swap two tables: the matches change tables in the event and the draw, and each table scorer token follows its table', async () => {
    const s = services();
    const ev = await eventOf(s);
    expect((await s.draws.create(ev.id, ev.token, { format: 'single', seeding: 'rating', autopilot: true })).ok).toBe(true);
    await quiet(s, ev.id);
    const before = await tables(s, ev.id);
    const [m1, m2] = [before['table-1']!, before['table-2']!];
    const t1 = ((await s.events.issueTableToken(ev.id, ev.token, 'table-1')) as { scorerToken: string }).scorerToken;
    const swapped = await s.draws.swap(ev.id, ev.token, { tables: ['table-1', 'table-2'] });
    expect(swapped.ok, JSON.stringify(swapped)).toBe(true);
    await quiet(s, ev.id);
    expect(await tables(s, ev.id)).toEqual({ 'table-1': m2, 'table-2': m1 });
    const d = await drawOf(s, ev.id);
    expect(d.draw.matches.find((m) => m.matchId === m1)).toMatchObject({ status: 'playing', table: 'table-2' });
    expect(d.draw.matches.find((m) => m.matchId === m2)).toMatchObject({ status: 'playing', table: 'table-1' });
    const view = (await s.events.view(ev.id))!;
    expect(view.matches.find((m) => m.id === m1)!.table).toBe('table-2');
    // Table 1's tablet now scores m2 (its current match), no longer m1; m2 won with it enters the draw.
    expect(await s.matches.record(m1, t1, { stepId: 'sw-1', step: { undo: true } })).toMatchObject({ ok: false, error: { code: 'not-current-match' } });
    await win(s, m2, t1);
    await quiet(s, ev.id);
    const after = await drawOf(s, ev.id);
    expect(after.draw.matches.find((m) => m.matchId === m2)).toMatchObject({ status: 'done', table: 'table-1' });
    // Table 1 took the next ready match.
    const now = await tables(s, ev.id);
    expect(now['table-1']).not.toBe(m2);
    expect(now['table-2']).toBe(m1);
    // Bad input: unknown table, the same table twice, a body field; nothing changes.
    const version = after.version;
    expect(await s.draws.swap(ev.id, ev.token, { tables: ['table-1', 'table-9'] })).toMatchObject({
      ok: false,
      error: { code: 'invalid-draw', field: 'tables.1' },
    });
    expect(await s.draws.swap(ev.id, ev.token, { tables: ['table-1', 'table-1'] })).toMatchObject({
      ok: false,
      error: { code: 'invalid-request', field: 'tables.1' },
    });
    expect(await s.draws.swap(ev.id, ev.token, { tables: ['table-1'] })).toMatchObject({ ok: false, error: { code: 'invalid-draw', field: 'tables' } });
    expect(await s.draws.swap(ev.id, undefined, { tables: ['table-1', 'table-2'] })).toMatchObject({ ok: false, error: { code: 'unauthorized' } });
    expect((await drawOf(s, ev.id)).version).toBe(version);
    expect(await tables(s, ev.id)).toEqual(now);
  });

  it('undo an assignment: the match is ready again and its table held until released; refused once a shot is recorded', async () => {
    const s = services();
    const ev = await eventOf(s);
    expect((await s.draws.create(ev.id, ev.token, { format: 'single', seeding: 'rating', autopilot: true })).ok).toBe(true);
    await quiet(s, ev.id);
    const on = await tables(s, ev.id);
    const d0 = await drawOf(s, ev.id);
    const first = d0.draw.matches.find((m) => m.matchId === on['table-1'])!;
    const second = d0.draw.matches.find((m) => m.matchId === on['table-2'])!;
    // A shot on table 2's match: its assignment can no longer be undone.
    const t2 = ((await s.events.issueTableToken(ev.id, ev.token, 'table-2')) as { scorerToken: string }).scorerToken;
    await recordOk(s.matches, { id: second.matchId!, scorerToken: t2 }, stepsToWin((await s.matches.currentState(second.matchId!))!.setup)[0]!);
    const refused = await s.draws.unassign(ev.id, ev.token, { match: second.id });
    expect(refused).toMatchObject({ ok: false, error: { code: 'match-on-table', field: 'match' } });
    expect(await s.draws.unassign(ev.id, ev.token, { match: 'W9-9' })).toMatchObject({ ok: false, error: { code: 'not-in-draw', field: 'match' } });
    const readyOne = d0.draw.ready[0]!;
    expect(await s.draws.unassign(ev.id, ev.token, { match: readyOne })).toMatchObject({ ok: false, error: { code: 'not-ready', field: 'match' } });
    expect((await drawOf(s, ev.id)).version).toBe(d0.version);

    // Table 1's match, not begun: off the table (and out of the store), ready again; table 1 stays free.
    const undone = await s.draws.unassign(ev.id, ev.token, { match: first.id });
    expect(undone.ok, JSON.stringify(undone)).toBe(true);
    await quiet(s, ev.id);
    const d1 = await drawOf(s, ev.id);
    expect(d1.settings.held).toEqual(['table-1']);
    expect(d1.draw.matches.find((m) => m.id === first.id)!.status).toBe('ready');
    expect(await tables(s, ev.id)).toEqual({ 'table-1': null, 'table-2': second.matchId });
    expect(await s.matches.currentState(first.matchId!)).toBeNull();
    expect((await s.events.view(ev.id))!.matches.some((m) => m.id === first.matchId)).toBe(false);
    // Released: autopilot puts the earliest ready match (the undone one) on table 1, as a new cuecast match.
    expect(await s.draws.hold(ev.id, ev.token, { table: 'table-7', held: false })).toMatchObject({
      ok: false,
      error: { code: 'invalid-draw', field: 'table' },
    });
    expect((await s.draws.hold(ev.id, ev.token, { table: 'table-1', held: false })).ok).toBe(true);
    await quiet(s, ev.id);
    const d2 = await drawOf(s, ev.id);
    const again = d2.draw.matches.find((m) => m.id === first.id)!;
    expect(again).toMatchObject({ status: 'playing', table: 'table-1' });
    expect(again.matchId).not.toBe(first.matchId);
    expect((await tables(s, ev.id))['table-1']).toBe(again.matchId);
    // The draw's log: start, unstart, start of the same match.
    expect((await s.draws.entries(ev.id)).filter((e) => e.t !== 'result' && 'match' in e && e.match === first.id).map((e) => e.t)).toEqual([
      'start',
      'unstart',
      'start',
    ]);
  });

  it('refuses an unknown player or a bad policy by name', async () => {
    const s = services();
    const ev = await eventOf(s);
    expect((await s.draws.create(ev.id, ev.token, { format: 'single', players: ev.players.slice(0, 4) })).ok).toBe(true);
    const v = (await drawOf(s, ev.id)).version;
    expect(await s.draws.absent(ev.id, ev.token, { player: ev.players[6], absent: true })).toMatchObject({
      ok: false,
      error: { code: 'invalid-draw', field: 'player' },
    });
    expect(await s.draws.absent(ev.id, ev.token, { player: ev.players[0] })).toMatchObject({ ok: false, error: { code: 'invalid-draw', field: 'absent' } });
    expect(await s.draws.absentPolicy(ev.id, ev.token, { policy: 'forfeit' })).toMatchObject({ ok: false, error: { code: 'invalid-draw', field: 'policy' } });
    expect(await s.draws.absent(ev.id, 'wrong', { player: ev.players[0], absent: true })).toMatchObject({ ok: false, error: { code: 'forbidden' } });
    expect((await drawOf(s, ev.id)).version).toBe(v);
  });
});
