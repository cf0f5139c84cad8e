/** Unit tests of the draw's formats, seeding, races, results and corrections (shared/draw/). */
import { describe, expect, it } from 'vitest';
import {
  applyDrawEntry,
  bracketOrder,
  champion,
  checkDefinition,
  drawDelta,
  drawState,
  drawView,
  groupTables,
  matchViews,
  newDraw,
  readyMatches,
  seededShuffle,
  seedOrder,
  standings,
  withDelta,
  type DrawDefinition,
  type DrawState,
} from '../../shared/draw/index';
import { apply, draw, field, view, win } from './play';

const single = (n: number, extra: Partial<DrawDefinition> = {}): DrawDefinition => ({
  format: 'single',
  players: field(n),
  seeding: { by: 'rating' },
  races: { default: 100 },
  ...extra,
});
const double = (n: number, trueDouble: boolean): DrawDefinition => ({
  format: 'double',
  players: field(n),
  seeding: { by: 'order' },
  races: { default: 100, sides: { L: 75 } },
  trueDouble,
});
const refusal = (r: ReturnType<typeof applyDrawEntry>) => ('error' in r ? r.error : null);

describe('single elimination', () => {
  it('seeds in the standard order (1 v 8, 4 v 5, 2 v 7, 3 v 6), rounds named, the final last', () => {
    expect(bracketOrder(8)).toEqual([1, 8, 4, 5, 2, 7, 3, 6]);
    const s = draw(single(8));
    const v = matchViews(s);
    expect(v.filter((m) => m.round === 'R1').map((m) => m.players)).toEqual([
      ['p1', 'p8'],
      ['p4', 'p5'],
      ['p2', 'p7'],
      ['p3', 'p6'],
    ]);
    expect(v.map((m) => [m.id, m.roundName, m.place])).toEqual([
      ['R1-1', 'Quarter-finals', 'R1 M1'],
      ['R1-2', 'Quarter-finals', 'R1 M2'],
      ['R1-3', 'Quarter-finals', 'R1 M3'],
      ['R1-4', 'Quarter-finals', 'R1 M4'],
      ['R2-1', 'Semi-finals', 'R2 M1'],
      ['R2-2', 'Semi-finals', 'R2 M2'],
      ['F', 'Final', 'Final'],
    ]);
    expect(readyMatches(s)).toEqual(['R1-1', 'R1-2', 'R1-3', 'R1-4']);
  });

  it('byes go to the top seeds, who are through without playing; a result makes the next match ready', () => {
    let s = draw(single(6));
    expect(
      matchViews(s)
        .filter((m) => m.status === 'bye')
        .map((m) => m.players),
    ).toEqual([
      ['p1', 'bye'],
      ['p2', 'bye'],
    ]);
    expect(view(s, 'R2-1').players).toEqual(['p1', null]);
    const r = applyDrawEntry(s, win(s, 'R1-2', 1));
    if ('error' in r) throw new Error(r.error.message);
    expect(r.ready).toEqual(['R2-1']);
    s = r.state;
    expect(view(s, 'R2-1')).toMatchObject({ players: ['p1', 'p5'], status: 'ready' });
  });

  it('places: the champion 1, the runner-up 2, the semi-finalists share 3, the quarter-finalists 5', () => {
    let s = draw(single(8));
    for (const id of ['R1-1', 'R1-2', 'R1-3', 'R1-4', 'R2-1', 'R2-2', 'F']) s = apply(s, win(s, id, 0));
    expect(champion(s)).toBe('p1');
    expect(standings(s).map((r) => [r.player, r.place])).toEqual([
      ['p1', 1],
      ['p2', 2],
      ['p3', 3],
      ['p4', 3],
      ['p5', 5],
      ['p6', 5],
      ['p7', 5],
      ['p8', 5],
    ]);
    // Before the final, a semi-finalist's place is settled (3), the finalists' not yet.
    let t = draw(single(8));
    for (const id of ['R1-1', 'R1-2', 'R1-3', 'R1-4', 'R2-1']) t = apply(t, win(t, id, 0));
    const rows = new Map(standings(t).map((r) => [r.player, r.place]));
    expect([rows.get('p1'), rows.get('p4'), rows.get('p5')]).toEqual([null, null, 5]);
  });
});

describe('double elimination', () => {
  /** Plays W1, W2 and L rounds of a 4-player draw so that p1 holds the hot seat and p2 comes through the losers' side. */
  function toFinal(trueDouble: boolean): DrawState {
    let s = draw(double(4, trueDouble));
    expect(matchViews(s).map((m) => [m.id, m.place])).toEqual([
      ['W1-1', 'W R1 M1'],
      ['W1-2', 'W R1 M2'],
      ['HS', 'Hot seat'],
      ['L1-1', 'L R1 M1'],
      ['L2-1', 'L R2 M1'],
      ['F', 'Final'],
      ...(trueDouble ? [['FR', 'Final reset']] : []),
    ]);
    s = apply(s, win(s, 'W1-1', 0)); // p1 beats p4
    s = apply(s, win(s, 'W1-2', 1)); // p3 beats p2 (p2 drops)
    expect(view(s, 'L1-1')).toMatchObject({ players: ['p4', 'p2'], status: 'ready', race: 75 });
    s = apply(s, win(s, 'HS', 0)); // p1 in the hot seat, p3 drops to the losers' final
    s = apply(s, win(s, 'L1-1', 1)); // p2 beats p4
    expect(view(s, 'L2-1').roundName).toBe("Losers' final");
    s = apply(s, win(s, 'L2-1', 0)); // p2 beats p3
    expect(view(s, 'F')).toMatchObject({ players: ['p1', 'p2'], status: 'ready', race: 100 });
    return s;
  }

  it("true double: the losers' side player wins the final, the reset is played and decides", () => {
    let s = toFinal(true);
    const r = applyDrawEntry(s, win(s, 'F', 1));
    if ('error' in r) throw new Error(r.error.message);
    expect(r.ready).toEqual(['FR']);
    s = r.state;
    expect(champion(s)).toBeNull();
    expect(view(s, 'FR').players).toEqual(['p1', 'p2']);
    s = apply(s, win(s, 'FR', 1));
    expect(champion(s)).toBe('p2');
    expect(standings(s).map((x) => [x.player, x.place, x.wins, x.losses])).toEqual([
      ['p2', 1, 4, 1],
      ['p1', 2, 2, 2],
      ['p3', 3, 1, 2],
      ['p4', 4, 0, 2],
    ]);
  });

  it("true double: the hot seat's holder wins the final and the reset is void", () => {
    let s = toFinal(true);
    s = apply(s, win(s, 'F', 0));
    expect(view(s, 'FR').status).toBe('void');
    expect(champion(s)).toBe('p1');
    expect(readyMatches(s)).toEqual([]);
    expect(refusal(applyDrawEntry(s, win(s, 'FR', 0)))).toMatchObject({ code: 'not-ready', field: 'match' });
  });

  it("final once: the losers' side player who wins it is champion, the hot seat holder out after one loss", () => {
    let s = toFinal(false);
    s = apply(s, win(s, 'F', 1));
    expect(champion(s)).toBe('p2');
    expect(standings(s).map((x) => [x.player, x.place, x.losses])).toEqual([
      ['p2', 1, 1],
      ['p1', 2, 1],
      ['p3', 3, 2],
      ['p4', 4, 2],
    ]);
  });

  it("a 16-player draw has 30 matches and the reset; the losers' side crosses the drops", () => {
    const s = draw(double(16, true));
    const v = matchViews(s);
    expect(v).toHaveLength(31);
    expect(v.filter((m) => m.side === 'L').map((m) => m.round)).toEqual(['L1', 'L1', 'L1', 'L1', 'L2', 'L2', 'L2', 'L2', 'L3', 'L3', 'L4', 'L4', 'L5', 'L6']);
    expect(s.structure.matches.find((m) => m.id === 'L2-1')!.slots[1]).toEqual({ loser: s.structure.index.get('W2-4') });
  });
});

describe('round robin', () => {
  // Players are p1, p2, … in seed order; `play` finds the pair's match and records x's win.
  const rr = (n: number, size: number): DrawDefinition => ({
    format: 'round-robin',
    players: field(n),
    seeding: { by: 'order' },
    races: { default: 7 },
    groupSize: size,
  });
  /** A result of the match between x and y: x wins `sx` to `sy`. */
  function play(s: DrawState, x: string, y: string, sx: number, sy: number, highRun?: [number, number]): DrawState {
    const m = matchViews(s).find((v) => v.players.includes(x) && v.players.includes(y))!;
    const aIsX = m.players[0] === x;
    return apply(s, {
      t: 'result',
      match: m.id,
      winner: x,
      kind: 'win',
      score: aIsX ? [sx, sy] : [sy, sx],
      ...(highRun ? { highRun: aIsX ? highRun : [highRun[1], highRun[0]] } : {}),
    });
  }

  it('snake groups, each pair once, a player never in two ready matches', () => {
    const s = draw(rr(8, 4));
    expect(s.structure.groups).toEqual([
      [0, 3, 4, 7],
      [1, 2, 5, 6],
    ]);
    const v = matchViews(s);
    expect(v).toHaveLength(12);
    expect(v[0]).toMatchObject({ id: 'GA-1-1', place: 'Group A R1 M1', group: 'A', roundName: 'Group round 1' });
    const ready = readyMatches(s)
      .map((id) => view(s, id).players)
      .flat();
    expect(new Set(ready).size).toBe(ready.length);
    expect(ready).toHaveLength(8);
  });

  it('standings: matches won, then head-to-head among the level players, then the difference, then the high run', () => {
    // Group of 4: p1 3 wins; p2, p3 and p4 one each — head-to-head among them is a cycle (1 each), so the difference decides.
    let s = draw(rr(4, 4));
    s = play(s, 'p1', 'p2', 7, 6);
    s = play(s, 'p1', 'p3', 7, 0);
    s = play(s, 'p1', 'p4', 7, 5);
    s = play(s, 'p2', 'p3', 7, 1); // p2 +6
    s = play(s, 'p3', 'p4', 7, 6); // p3 +1
    s = play(s, 'p4', 'p2', 7, 2); // p4 +5
    const rows = groupTables(s)[0]!.rows;
    expect(rows.map((r) => [r.player, r.won, r.for - r.against])).toEqual([
      ['p1', 3, 10],
      ['p4', 1, 2],
      ['p2', 1, 0],
      ['p3', 1, -12],
    ]);
    expect(champion(s)).toBe('p1');
    expect(standings(s).map((r) => [r.player, r.place])).toEqual([
      ['p1', 1],
      ['p4', 2],
      ['p2', 3],
      ['p3', 4],
    ]);
  });

  it('head-to-head decides two level players before the difference; the high run before the seed', () => {
    let s = draw(rr(3, 3));
    s = play(s, 'p2', 'p1', 7, 6); // p2 beat p1
    s = play(s, 'p1', 'p3', 7, 0); // p1 +7
    s = play(s, 'p3', 'p2', 7, 6); // all on one win
    // Three level on one win each, head-to-head 1 each: difference p1 +6, p3 -6, p2 0.
    expect(groupTables(s)[0]!.rows.map((r) => r.player)).toEqual(['p1', 'p2', 'p3']);
    let t = draw(rr(4, 4));
    t = play(t, 'p3', 'p1', 7, 5); // p3 beats p1 …
    t = play(t, 'p1', 'p2', 7, 5, [7, 3]);
    t = play(t, 'p1', 'p4', 7, 5);
    t = play(t, 'p3', 'p2', 7, 5, [7, 2]);
    t = play(t, 'p3', 'p4', 7, 0);
    t = play(t, 'p2', 'p4', 7, 5);
    // p3 3 wins, p1 2, p2 1, p4 0.
    expect(groupTables(t)[0]!.rows.map((r) => r.player)).toEqual(['p3', 'p1', 'p2', 'p4']);
    // Three level on wins, head-to-head (a cycle) and difference: the high run decides, then the seed.
    const cycle = (runs: boolean) => {
      let u = draw(rr(3, 3));
      u = play(u, 'p1', 'p2', 7, 5, runs ? [3, 2] : undefined);
      u = play(u, 'p2', 'p3', 7, 5, runs ? [5, 2] : undefined);
      u = play(u, 'p3', 'p1', 7, 5, runs ? [7, 1] : undefined);
      return groupTables(u)[0]!.rows.map((r) => r.player);
    };
    expect(cycle(true)).toEqual(['p3', 'p2', 'p1']);
    expect(cycle(false)).toEqual(['p1', 'p2', 'p3']);
  });
});

describe('groups then knockout', () => {
  it('the top 2 of each group go on; the knockout waits for its group; group winners meet runners-up', () => {
    const def: DrawDefinition = {
      format: 'groups-knockout',
      players: field(8),
      seeding: { by: 'order' },
      races: { default: 7, sides: { W: 9, F: 11 } },
      groupSize: 4,
      advance: 2,
    };
    let s = draw(def);
    expect(view(s, 'R1-1')).toMatchObject({ players: [null, null], status: 'waiting', race: 9 });
    expect(view(s, 'F').race).toBe(11);
    for (const m of matchViews(s).filter((v) => v.group === 'A')) s = apply(s, win(s, m.id, 0));
    expect(view(s, 'R1-1').players[0]).not.toBeNull();
    expect(view(s, 'R1-1').players[1]).toBeNull();
    for (const m of matchViews(s).filter((v) => v.group === 'B')) s = apply(s, win(s, m.id, 0));
    const [a, b] = groupTables(s);
    expect(view(s, 'R1-1').players).toEqual([a!.rows[0]!.player, b!.rows[1]!.player]);
    expect(view(s, 'R1-2').players).toEqual([b!.rows[0]!.player, a!.rows[1]!.player]);
    for (const id of ['R1-1', 'R1-2', 'F']) s = apply(s, win(s, id, 0));
    expect(champion(s)).toBe(a!.rows[0]!.player);
    const places = standings(s).map((r) => r.place);
    expect(places).toEqual([1, 2, 3, 3, 5, 5, 7, 7]);
  });
});

describe('seeding', () => {
  it('by rating (equal ratings in the given order), by the given order, or a random draw the seed repeats', () => {
    const players = [{ id: 'a', rating: 10 }, { id: 'b', rating: 30 }, { id: 'c' }, { id: 'd', rating: 30 }];
    expect(seedOrder(players, { by: 'rating' })).toEqual(['b', 'd', 'a', 'c']);
    expect(seedOrder(players, { by: 'order' })).toEqual(['a', 'b', 'c', 'd']);
    const ids = field(32).map((p) => p.id);
    expect(seededShuffle(ids, 7)).toEqual(seededShuffle(ids, 7));
    expect(seededShuffle(ids, 7)).not.toEqual(seededShuffle(ids, 8));
    expect([...seededShuffle(ids, 7)].sort()).toEqual([...ids].sort());
    const def = single(16, { seeding: { by: 'random', seed: 12345 } });
    expect(drawView(draw(def))).toEqual(drawView(draw(structuredClone(def))));
    expect(drawView(draw(def)).randomSeed).toBe(12345);
  });
});

describe('races per round', () => {
  it('from the defaults (side, round), changed for a round until its first match starts', () => {
    let s = draw(double(8, true));
    expect(view(s, 'W1-1').race).toBe(100);
    expect(view(s, 'L1-1').race).toBe(75);
    s = apply(s, { t: 'race', round: 'W1', race: 60 });
    expect(view(s, 'W1-4').race).toBe(60);
    s = apply(s, { t: 'start', match: 'W1-1', table: 'table-1' });
    expect(refusal(applyDrawEntry(s, { t: 'race', round: 'W1', race: 50 }))).toMatchObject({ code: 'draw-started', field: 'round' });
    expect(refusal(applyDrawEntry(s, { t: 'race', round: 'W9', race: 50 }))).toMatchObject({ code: 'not-in-draw', field: 'round' });
    expect(refusal(applyDrawEntry(s, { t: 'race', round: 'W2', race: 0 }))).toMatchObject({ code: 'invalid-draw', field: 'race' });
  });

  it("a true double's reset is the final played again: it takes the final's race unless it has its own", () => {
    let s = draw(double(8, true));
    expect([view(s, 'F').race, view(s, 'FR').race]).toEqual([100, 100]);
    s = apply(s, { t: 'race', round: 'F', race: 120 });
    expect([view(s, 'F').race, view(s, 'FR').race]).toEqual([120, 120]);
    s = apply(s, { t: 'race', round: 'FR', race: 90 });
    expect([view(s, 'F').race, view(s, 'FR').race]).toEqual([120, 90]);
    const byDefinition = draw({ ...double(8, true), races: { default: 100, sides: { L: 75 }, rounds: { F: 110 } } });
    expect([view(byDefinition, 'F').race, view(byDefinition, 'FR').race]).toEqual([110, 110]);
    const bySide = draw({ ...double(8, true), races: { default: 100, sides: { F: 130 } } });
    expect([view(bySide, 'F').race, view(bySide, 'FR').race]).toEqual([130, 130]);
  });
});

describe('results, starts and corrections', () => {
  it('walkover and retirement count as wins; a winner not in the match, a bad score, an unknown match are refused', () => {
    let s = draw(single(4));
    s = apply(s, { t: 'result', match: 'R1-1', winner: 'p4', kind: 'walkover' });
    s = apply(s, { t: 'result', match: 'R1-2', winner: 'p2', kind: 'retired', score: [40, 12] });
    expect(view(s, 'F').players).toEqual(['p4', 'p2']);
    expect(refusal(applyDrawEntry(s, { t: 'result', match: 'F', winner: 'p1', kind: 'win' }))).toMatchObject({ code: 'invalid-draw', field: 'winner' });
    expect(refusal(applyDrawEntry(s, { t: 'result', match: 'F', winner: 'p4', kind: 'win', score: [50, 100] }))).toMatchObject({
      code: 'invalid-draw',
      field: 'score',
    });
    expect(refusal(applyDrawEntry(s, { t: 'result', match: 'X9', winner: 'p4', kind: 'win' }))).toMatchObject({ code: 'not-in-draw', field: 'match' });
    expect(refusal(applyDrawEntry(draw(single(4)), { t: 'result', match: 'F', winner: 'p1', kind: 'win' }))).toMatchObject({
      code: 'not-ready',
      field: 'match',
    });
  });

  it('a player is never started on two tables; an undone start makes the match ready again', () => {
    let s = draw({ format: 'round-robin', players: field(4), seeding: { by: 'order' }, races: { default: 5 }, groupSize: 4 });
    const [first] = readyMatches(s);
    s = apply(s, { t: 'start', match: first!, table: 'table-1' });
    const p = view(s, first!).players[0]!;
    const other = matchViews(s).find((m) => m.id !== first && m.players.includes(p))!;
    expect(refusal(applyDrawEntry(s, { t: 'start', match: other.id, table: 'table-2' }))).toMatchObject({ code: 'player-busy', field: 'match' });
    expect(readyMatches(s)).not.toContain(other.id);
    s = apply(s, { t: 'unstart', match: first! });
    expect(view(s, first!).status).toBe('ready');
  });

  it('a correction goes through while nothing depending on it started; after that only naming the matches it resets', () => {
    let s = draw(single(4));
    s = apply(s, win(s, 'R1-1', 0)); // p1
    s = apply(s, win(s, 'R1-2', 0)); // p2
    // Nothing started after it: the other player wins R1-1 instead.
    s = apply(s, { t: 'result', match: 'R1-1', winner: 'p4', kind: 'win', score: [3, 5] });
    expect(view(s, 'F').players).toEqual(['p4', 'p2']);
    s = apply(s, { t: 'start', match: 'F', table: 'tv' });
    const plain = applyDrawEntry(s, { t: 'result', match: 'R1-1', winner: 'p1', kind: 'win' });
    expect(refusal(plain)).toMatchObject({ code: 'cascade-required', field: 'reset' });
    expect(refusal(plain)!.message).toContain('F');
    expect(refusal(applyDrawEntry(s, { t: 'result', match: 'R1-1', winner: 'p1', kind: 'win', reset: ['R1-2'] }))).toMatchObject({
      code: 'invalid-draw',
      field: 'reset.0',
    });
    // The score alone may change (same winner): nothing downstream changes.
    s = apply(s, { t: 'result', match: 'R1-1', winner: 'p4', kind: 'win', score: [2, 5] });
    s = apply(s, { t: 'result', match: 'R1-1', winner: 'p1', kind: 'win', reset: ['F'] });
    expect(view(s, 'F')).toMatchObject({ players: ['p1', 'p2'], status: 'ready' });
    expect(view(s, 'F').table).toBeUndefined();
  });

  it('drawState names the refused entry; a delta applied to the old view gives the new one', () => {
    const def = single(4);
    const bad = drawState(def, [
      { t: 'result', match: 'R1-1', winner: 'p1', kind: 'win' },
      { t: 'result', match: 'F', winner: 'p9', kind: 'win' },
    ]);
    expect('error' in bad && bad.error).toMatchObject({ code: 'not-ready', field: 'entries.1.match' });
    let s = draw(def);
    let v = drawView(s);
    for (const id of ['R1-1', 'R1-2', 'F']) {
      s = apply(s, win(s, id, 1));
      const next = drawView(s);
      v = withDelta(v, drawDelta(v, next));
      expect(v).toEqual(next);
    }
  });
});

describe('a definition is checked, naming the field', () => {
  it.each([
    [single(1), 'players', 'at least 2'],
    [{ ...single(3), players: [{ id: 'a' }, { id: 'b' }, { id: 'a' }] }, 'players.2.id', 'twice'],
    [{ ...single(4), races: { default: 0 } }, 'races.default', 'race'],
    [{ ...single(4), races: { default: 5, sides: { L: 2.5 } } }, 'races.sides.L', 'race'],
    [{ ...single(4), seeding: { by: 'random' as const, seed: -1 } }, 'seeding.seed', 'seed'],
    [{ ...single(8), format: 'round-robin' as const }, 'groupSize', 'per group'],
    [{ ...single(8), format: 'groups-knockout' as const, groupSize: 4, advance: 4 }, 'advance', 'smallest group has 4'],
  ])('%#: %s', (def, field, words) => {
    const problem = checkDefinition(def as DrawDefinition);
    expect(problem).toMatchObject({ code: 'invalid-draw', field });
    expect(problem!.message).toContain(words);
    expect(newDraw(def as DrawDefinition)).toMatchObject({ error: { field } });
  });
});
