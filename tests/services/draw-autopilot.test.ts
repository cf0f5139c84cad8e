/**
 * The event runs itself (issue 27), at the service level (the match, event and draw services over the in-memory
 * stores, a fake clock, no sockets): a draw made with autopilot on puts its ready matches on the event's tables,
 * each won match enters the draw by itself and the freed table takes the next one — a 24-player groups then
 * knockout on 4 tables and a 16-player double elimination (true double) on 4 tables, played to the end. Each
 * draw match is played exactly once (one cuecast match each), no player is ever on two tables, and the champion
 * and final standings are those of the pure draw given the same winners.
 */
import { describe, expect, it } from 'vitest';
import { champion, drawState, drawView, standings, type DrawDefinition } from '../../shared/draw/index';
import type { DrawInfo } from '../../server/draws/service';
import { stepsToWin } from '../helpers/events';
import { captureTokens, quiet } from '../helpers/draws';
import { recordOk, services, type Services } from '../helpers/services';
import { draw as pureDraw, playOut } from '../draw/play';

const TABLES = ['Table 1', 'Table 2', 'Table 3', 'TV table'];

/** An event with `n` rostered players (rated, so p1 is the best) and four tables; 14-1 to 3 by default. */
async function eventOf(s: Services, n: number) {
  const roster = Array.from({ length: n }, (_, i) => ({ name: `Player ${i + 1}`, rating: 900 - i }));
  const created = await s.events.create({
    name: 'Open',
    date: '2026-03-13',
    defaults: { discipline: '14-1', ruleset: 'nba', targets: [3, 3] },
    tables: TABLES,
    roster,
  });
  return { id: created.event.id, token: created.organiserToken, roster: created.event.roster.map((p) => p.id) };
}

/** Let every hook of the recorded steps run and every queued draw change finish. */

/**
 * Play the event: while a table has a match in play, win it for player A with the engine's steps (the scorer's
 * part); the services do the rest. Checks after each change that no player is on two tables.
 * @returns the cuecast matches played.
 */
async function playEvent(s: Services, ev: { id: string }, tokens: Map<string, string>): Promise<string[]> {
  const played: string[] = [];
  for (let guard = 0; guard < 500; guard++) {
    await quiet(s, ev.id);
    const view = (await s.events.view(ev.id))!;
    const live = view.tables.map((t) => t.current).filter((m): m is string => m !== null && view.live[m]?.winner === null);
    const onTables = live.flatMap((m) => view.live[m]!.names);
    expect(new Set(onTables).size, `a player on two tables: ${onTables.join(', ')}`).toBe(onTables.length);
    if (live.length === 0) return played;
    const matchId = live[0]!;
    const cur = (await s.matches.currentState(matchId))!;
    for (const step of stepsToWin(cur.setup)) await recordOk(s.matches, { id: matchId, scorerToken: tokens.get(matchId)! }, step);
    played.push(matchId);
  }
  throw new Error('the event never ended');
}

/** Each draw match started once and decided once, by the cuecast match started for it. */
function expectEachPlayedOnce(info: DrawInfo, entries: Awaited<ReturnType<Services['draws']['entries']>>, played: string[]) {
  const toPlay = info.draw.matches.filter((m) => m.status !== 'bye' && m.status !== 'void');
  expect(toPlay.every((m) => m.status === 'done')).toBe(true);
  const starts = entries.filter((e) => e.t === 'start');
  const results = entries.filter((e) => e.t === 'result');
  expect(starts.map((e) => e.match).sort()).toEqual(toPlay.map((m) => m.id).sort());
  expect(results.map((e) => e.match).sort()).toEqual(toPlay.map((m) => m.id).sort());
  expect(new Set(played).size).toBe(played.length);
  expect(played.sort()).toEqual(toPlay.map((m) => m.matchId!).sort());
}

describe('a draw with autopilot runs the event to its end', () => {
  it('16-player double elimination (true double) on 4 tables: each match once, the champion and standings of the pure draw', async () => {
    const s = services();
    const tokens = captureTokens(s);
    const ev = await eventOf(s, 16);
    const made = await s.draws.create(ev.id, ev.token, { format: 'double', trueDouble: true, seeding: 'rating', races: { sides: { L: 2 } }, autopilot: true });
    expect(made.ok, JSON.stringify(made)).toBe(true);
    await quiet(s, ev.id);
    // Four matches on four tables at once, each with its race (the winners' side 3, from the event's defaults).
    const first = (await s.events.view(ev.id))!;
    expect(first.tables.every((t) => t.current !== null)).toBe(true);
    expect(first.live[first.tables[0]!.current!]!.targets).toEqual([3, 3]);
    const played = await playEvent(s, ev, tokens);
    const info = (await s.draws.get(ev.id)) as { ok: true; draw: DrawInfo };
    expect(info.ok).toBe(true);
    expectEachPlayedOnce(info.draw, await s.draws.entries(ev.id), played);
    // Player A wins every match: the pure draw with slot 0 always winning gives the same champion and standings.
    const pure = playOut(
      pureDraw(info.draw.definition),
      (r) => r[0]!,
      () => 0,
    ).state;
    expect(info.draw.draw.champion).toBe(champion(pure));
    expect(info.draw.draw.standings).toEqual(standings(pure));
    expect(info.draw.draw.standings.every((r) => r.place !== null)).toBe(true);
    expect(played.length).toBe(30); // 30 matches: the hot seat's holder won the final, no reset
    // The draw page's pushes: a delta per change, each under the 8 KB budget.
    expect(s.pushed.draws.length).toBeGreaterThan(30);
    expect(Math.max(...s.pushed.draws.slice(1).map((p) => JSON.stringify(p.delta).length))).toBeLessThan(8 * 1024);
  });

  it('24-player groups then knockout (4 groups of 6, top 2) on 4 tables: to the end, the top two of each group in the knockout', async () => {
    const s = services();
    const tokens = captureTokens(s);
    const ev = await eventOf(s, 24);
    const made = await s.draws.create(ev.id, ev.token, {
      format: 'groups-knockout',
      groupSize: 6,
      advance: 2,
      seeding: 'random',
      seed: 2026,
      tvTable: 'tv-table',
      featured: ['F'],
      autopilot: true,
    });
    expect(made.ok, JSON.stringify(made)).toBe(true);
    const played = await playEvent(s, ev, tokens);
    const info = ((await s.draws.get(ev.id)) as { ok: true; draw: DrawInfo }).draw;
    expectEachPlayedOnce(info, await s.draws.entries(ev.id), played);
    expect(played.length).toBe(60 + 7);
    const v = info.draw;
    expect(v.champion).not.toBeNull();
    const final = v.matches.find((m) => m.id === 'F')!;
    expect(final.table).toBe('tv-table');
    expect(v.champion).toBe(final.result!.winner);
    const qualifiers = v.groups.flatMap((g) => g.rows.slice(0, 2).map((r) => r.player)).sort();
    expect(
      v.matches
        .filter((m) => m.round === 'R1')
        .flatMap((m) => m.players)
        .sort(),
    ).toEqual(qualifiers);
    const places = v.standings.map((r) => r.place);
    expect(places).toEqual([1, 2, 3, 3, 5, 5, 5, 5, ...[9, 13, 17, 21].flatMap((p) => Array(4).fill(p))]);
    // The stored entries rebuild the same draw.
    const rebuilt = drawState(info.definition as DrawDefinition, await s.draws.entries(ev.id));
    if ('error' in rebuilt) throw new Error(rebuilt.error.message);
    expect(drawView(rebuilt)).toEqual(v);
  });
});
