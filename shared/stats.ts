/**
 * Statistics for the dashboard, kept incrementally: per-player innings, average, high run, safeties, fouls,
 * breaking fouls, three-foul penalties, runs per inning; the score sheet (one row per inning per player,
 * docs/rules.md §3.13; Rotation with balls and rack totals) and the consistency check (14-1 INV-1/INV-2,
 * Rotation INV-R1).
 *
 * `StatsState` is evolved by each effective step (`evolveStats`, O(1) in the length of the match: only the
 * newest sheet row and rack total are touched) and kept beside the engine's core on the match and on each
 * history node, so undo restores the previous statistics for free. The sheet and rack totals are persistent
 * lists (shared/persistent-list.ts): versions share every row they did not change, so the rows new or
 * changed between two versions (`statsDelta`) cost only what changed. `statsView` builds the whole
 * `MatchStats` (O(rows)), for a subscription or a request, never per step.
 */
import type { MatchSetup, Pair } from './protocol/setup';
import type { ConsistencyCheck, Outcome, RackTotal, SheetRow, TurnEnd } from './protocol/state';
import { playersOf } from './protocol/stats-delta';
import type { MatchStats, PlayerTotals, ScorebugFigures, StatsDelta, WindowPatch } from './protocol/wire';
import { racksWon } from './cards';
import { append, elementAt, fromArray, type PList, replaceAt, sizeOf, tailPatch, toArray, upsertSorted } from './persistent-list';
import { type Core, idx, initialCore } from './rules/core';

/** Score-sheet marker of each way a turn ends (docs/rules.md §3.13). */
export const MARKS: Record<TurnEnd, SheetRow['mark']> = {
  miss: '', safety: 'S', foul: 'F', 'breaking-foul': 'BF', 'third-foul': 'TF', 'illegal-break': 'IB',
  'push-out': 'PO', win: 'W', 'lost-break': '',
};

/** How many recent steps `MatchStats.recent` carries (the pages word them). */
export const RECENT_STEPS = 8;

/** Per-player counters of the statistics (everything the core does not already hold). */
export interface Tally {
  readonly safeties: number;
  readonly fouls: number;
  readonly breakingFouls: number;
  readonly threeFouls: number;
  /** Points gained on every step (gross; INV-1). */
  readonly scored: number;
  /** Points lost on fouls (14-1; INV-1). */
  readonly penalties: number;
}

/** The statistics of a match at one version, evolved step by step. Immutable; versions share structure. */
export interface StatsState {
  /** Score sheet, oldest row first. Rows are never mutated: a change makes a new row. */
  readonly sheet: PList<SheetRow>;
  /** Per player, the index in `sheet` of the inning still open, or −1. */
  readonly open: Pair<number>;
  /** Rack totals with points, ascending by rack. */
  readonly racks: PList<RackTotal>;
  readonly tally: Pair<Tally>;
  /** 14-1 INV-2: points scored on shots since the last re-rack (or since the start when there was none). */
  readonly rackScored: number;
  /** 14-1 INV-2: some effective step re-racked. */
  readonly reracked: boolean;
  /**
   * The outcomes of the recent effective steps: entries `recentEnd − RECENT_STEPS` … `recentEnd − 1` of
   * `recentBuf`, a buffer shared by successive versions and only ever appended to past the newest version's
   * end (`recentOf`).
   */
  readonly recentBuf: Outcome[];
  readonly recentEnd: number;
}

const ZERO: Tally = { safeties: 0, fouls: 0, breakingFouls: 0, threeFouls: 0, scored: 0, penalties: 0 };

/** Statistics before any step. */
export const EMPTY_STATS: StatsState = { sheet: null, open: [-1, -1], racks: null, tally: [ZERO, ZERO], rackScored: 0, reracked: false, recentBuf: [], recentEnd: 0 };

/** The outcomes of the last RECENT_STEPS effective steps of `s`, oldest first (a new array): `MatchStats.recent`. */
function recentOf(s: StatsState): Outcome[] {
  return s.recentBuf.slice(Math.max(0, s.recentEnd - RECENT_STEPS), s.recentEnd);
}

/** The outcome of the last effective step of `s` (`MatchState.last`), or null before any. */
export function lastOutcome(s: StatsState): Outcome | null {
  return s.recentEnd > 0 ? s.recentBuf[s.recentEnd - 1]! : null;
}

/** `t` with one step's counts added: its points, penalty, safety and foul (the same `t` when it adds none). */
function tallied(t: Tally, points: number, penalty: number, safety: boolean, foul: Outcome['foul']): Tally {
  if (points === 0 && penalty === 0 && !safety && !foul) return t;
  return {
    safeties: t.safeties + (safety ? 1 : 0),
    fouls: t.fouls + (foul === 'foul' || foul === 'third-foul' ? 1 : 0),
    breakingFouls: t.breakingFouls + (foul === 'breaking-foul' ? 1 : 0),
    threeFouls: t.threeFouls + (foul === 'third-foul' ? 1 : 0),
    scored: t.scored + points,
    penalties: t.penalties + penalty,
  };
}

/** Rack total `r` of rack `rack` (a new one when undefined) with player `k`'s shot added: its points and balls. */
function rackTotalWith(r: RackTotal | undefined, rack: number, k: 0 | 1, points: number, shotBalls: readonly number[] | undefined): RackTotal {
  const sum: Pair<number> = r ? [r.points[0], r.points[1]] : [0, 0];
  sum[k] += points;
  let balls: Pair<number[]> = r ? r.balls : [[], []];
  if (shotBalls) {
    balls = [balls[0], balls[1]];
    balls[k] = [...balls[k], ...shotBalls];
  }
  return { rack, points: sum, balls };
}

/**
 * The statistics after one effective step (not undo: undo restores the statistics kept before the step).
 * `before` is the core before the step, `after` the core after it. O(1) in the length of the match.
 */
export function evolveStats(setup: MatchSetup, s: StatsState, before: Core, o: Outcome, after: Core): StatsState {
  // Each outcome fact read once: outcomes come in many shapes (their optional facts), so every read is a slow lookup.
  const by = o.by;
  const points = o.points;
  const penalty = o.penalty;
  const turnEnd = o.turnEnd;
  const rerack = o.rerack;
  const isShot = o.kind === 'shot';
  const k = idx(by);
  const t = tallied(s.tally[k], points, penalty, !!o.safety, o.foul);
  // The same pair when the step changed no counter (most steps: a miss, a choice): one allocation less.
  const tally: Pair<Tally> = t === s.tally[k] ? s.tally : k === 0 ? [t, s.tally[1]] : [s.tally[0], t];
  // `s`'s recent steps with `o` appended: in place at the end of the shared buffer when `s` is its newest version
  // (O(1), no allocation), else (another version appended already, or the buffer is long) into a new buffer
  // holding the last RECENT_STEPS (O(RECENT_STEPS)). Written out here: no result object per step.
  let recentBuf = s.recentBuf;
  if (recentBuf.length !== s.recentEnd || recentBuf.length >= 8 * RECENT_STEPS) recentBuf = recentBuf.slice(Math.max(0, s.recentEnd - RECENT_STEPS + 1), s.recentEnd);
  recentBuf.push(o);
  const recentEnd = recentBuf.length;
  const rackScored = rerack ? 0 : s.rackScored + (isShot ? points : 0);
  const reracked = s.reracked || rerack !== undefined;
  if (!isShot) return { sheet: s.sheet, open: s.open, racks: s.racks, tally, rackScored, reracked, recentBuf, recentEnd };

  // The inning's row: a new one when this shot opened an inning (or none is open), else the open one. Each shape
  // of row is one object literal (no property added afterwards, no throw-away row for a new inning).
  const inning = o.inning;
  const shotRack = o.rack ?? before.rack;
  const balls = o.balls;
  const fresh = inning !== undefined || s.open[k] < 0;
  const index = fresh ? sizeOf(s.sheet) : s.open[k];
  const old: SheetRow | null = fresh ? null : elementAt(s.sheet, index);
  const player = old ? old.player : by;
  const rowInning = old ? old.inning : inning ?? before.innings[k];
  const rowRack = old ? old.rack : shotRack;
  const rowPoints = old ? old.points + points : points;
  const rowPenalty = old ? old.penalty + penalty : penalty;
  const mark = turnEnd ? MARKS[turnEnd] : old ? old.mark : '';
  const total = after.score[k];
  let row: SheetRow;
  if (setup.discipline === 'rotation') {
    const oldBalls = old?.balls;
    const rowBalls = balls ? (oldBalls ? oldBalls.concat(balls) : balls.slice()) : oldBalls ?? [];
    row = turnEnd
      ? { player, inning: rowInning, rack: rowRack, points: rowPoints, penalty: rowPenalty, mark, total, balls: rowBalls }
      : { player, inning: rowInning, rack: rowRack, points: rowPoints, penalty: rowPenalty, mark, total, open: true, balls: rowBalls };
  } else {
    row = turnEnd
      ? { player, inning: rowInning, rack: rowRack, points: rowPoints, penalty: rowPenalty, mark, total }
      : { player, inning: rowInning, rack: rowRack, points: rowPoints, penalty: rowPenalty, mark, total, open: true };
  }
  const sheet = fresh ? append(s.sheet, row) : replaceAt(s.sheet, index, row);
  const openAt = turnEnd ? -1 : index;
  const open: Pair<number> = s.open[k] === openAt ? s.open : k === 0 ? [openAt, s.open[1]] : [s.open[0], openAt];

  // Points belong to the rack the shot was played in (a shot that triggers a re-rack counts in the old one).
  let racks = s.racks;
  if (points > 0) {
    // The usual case, the newest rack total: its cell replaced in place (no closures, no list walk).
    racks = racks && racks.value.rack === shotRack
      ? { value: rackTotalWith(racks.value, shotRack, k, points, balls), next: racks.next, size: racks.size }
      : upsertSorted(racks, shotRack, (r) => r.rack, (r) => rackTotalWith(r, shotRack, k, points, balls));
  }
  return { sheet, open, racks, tally, rackScored, reracked, recentBuf, recentEnd };
}

/**
 * Player `k`'s average at `now` (docs/rules.md §3.13): points scored since the start of recording (the score
 * less the set-up's `startScore`) ÷ innings, rounded to 2 decimals; 0 before the first inning.
 */
function averageOf(setup: MatchSetup, now: Core, k: 0 | 1): number {
  const innings = now.innings[k];
  return innings > 0 ? Math.round(((now.score[k] - setup.startScore[k]) / innings) * 100) / 100 : 0;
}

/** Per-player figures without the runs list (which the sheet holds). */
function totalsOf(setup: MatchSetup, s: StatsState, now: Core): Pair<PlayerTotals> {
  return ([0, 1] as const).map((k): PlayerTotals => {
    const t = s.tally[k];
    return {
      innings: now.innings[k],
      points: now.score[k],
      average: averageOf(setup, now, k),
      highRun: now.highRun[k],
      safeties: t.safeties,
      fouls: t.fouls,
      breakingFouls: t.breakingFouls,
      threeFouls: t.threeFouls,
    };
  }) as Pair<PlayerTotals>;
}

/**
 * The figures a scorebug shows beside the state at core `now` (`ScorebugFigures`, for the `scorebug` detail):
 * each player's average as the statistics give it, and in a Rotation race the racks each won (cards.ts
 * `racksWon`; null for 14-1 and for a single rack to 61, whose one rack is the match). O(racks).
 */
export function scorebugFigures(setup: MatchSetup, s: StatsState, now: Core): ScorebugFigures {
  const race = setup.discipline === 'rotation' && setup.options.format === 'race';
  return {
    average: [averageOf(setup, now, 0), averageOf(setup, now, 1)],
    racksWon: race ? racksWon(setup, toArray(s.racks), now.winner) : null,
  };
}

/** The whole statistics at one version (O(rows): for a subscription or a request, never per step). */
export function statsView(setup: MatchSetup, s: StatsState, now: Core): MatchStats {
  const sheet = toArray(s.sheet);
  return {
    players: playersOf(totalsOf(setup, s, now), sheet),
    sheet,
    racks: toArray(s.racks),
    recent: recentOf(s),
    check: checkOf(setup, s, now),
  };
}

/**
 * What changed in the statistics from version `since` (statistics `from`) to `to` / `now`: the player totals,
 * the sheet rows and rack totals new or changed (rows removed by an undo are cut off), the recent outcomes new
 * to the list, and the check. O(rows changed) when `to` was evolved from `from` (or both from a common
 * version): the case of consecutive versions.
 */
export function statsDelta(setup: MatchSetup, since: number, from: StatsState, to: StatsState, now: Core): StatsDelta {
  return {
    since,
    players: totalsOf(setup, to, now),
    sheet: tailPatch(from.sheet, to.sheet),
    racks: tailPatch(from.racks, to.racks),
    recent: recentPatch(from, to),
    check: checkOf(setup, to, now),
  };
}

/**
 * The recent outcomes of `to` as a change of those of `from`: the run of `to`'s list that `from`'s holds
 * too (outcomes are shared by identity between versions evolved from one another) is kept, the rest sent. O(RECENT_STEPS²). Without a shared outcome the whole list is sent.
 */
function recentPatch(from: StatsState, to: StatsState): WindowPatch<Outcome> {
  const old = recentOf(from);
  const now = recentOf(to);
  for (let k = 0; k < now.length; k++) {
    const i = old.indexOf(now[k]!);
    if (i < 0) continue;
    let j = i;
    while (j < old.length && k + j - i < now.length && old[j] === now[k + j - i]) j++;
    return { before: now.slice(0, k), from: i, to: j, after: now.slice(k + j - i) };
  }
  return { before: now, from: 0, to: 0, after: [] };
}

/** The consistency check of the statistics `s` at core `now`. */
function checkOf(setup: MatchSetup, s: StatsState, now: Core): ConsistencyCheck {
  const inRack = now.winner === null && (s.reracked || (!setup.start && now.rack === 1)) ? s.rackScored : null;
  return consistencyCheck(setup, initialCore(setup), now, s.tally[0].scored + s.tally[1].scored, s.tally[0].penalties + s.tally[1].penalties, inRack);
}

/**
 * The rules' consistency check, relative to where recording began (`first`: a match may be picked up in
 * progress). 14-1 INV-1: change of the score sum = balls legally scored − foul points; INV-2: balls scored in
 * the current rack (`inRack`, null when the rack began before recording) = 15 − balls on the table. Rotation
 * INV-R1: change of the score sum = 120 per rack finished + points taken off the current table (a 61
 * tie-break adds 1). `scored` and `penalties` are the totals of every effective step.
 */
export function consistencyCheck(
  setup: MatchSetup, first: Core, now: Core, scored: number, penalties: number, inRack: number | null,
): ConsistencyCheck {
  const scoreChange = now.score[0] + now.score[1] - (first.score[0] + first.score[1]);
  if (setup.discipline === 'rotation') {
    const left = (t: readonly number[] | null) => (t ?? []).reduce((a, b) => a + b, 0);
    const racks = now.rack - first.rack;
    const fromTable = left(first.table) - left(now.table);
    const expected = 120 * racks + fromTable;
    const tieBreak = !!now.winner && setup.options.format === 'single-rack-61' && now.table?.length === 0 && scoreChange === expected + 1;
    const ok = scoreChange === expected + (tieBreak ? 1 : 0) && scored === expected;
    return { discipline: 'rotation', ok, scoreChange, racks, fromTable, tieBreak };
  }
  const scoreOk = scoreChange === scored - penalties;
  // INV-2 holds once the current rack began while recording (or from a fresh start).
  const rack = inRack === null ? null : { scored: inRack, onTable: now.count, ok: inRack === 15 - now.count };
  return { discipline: '14-1', ok: scoreOk && (rack?.ok ?? true), scoreChange, scored, penalties, scoreOk, rack };
}

/** `StatsState` as plain JSON data (arrays for the persistent lists), for the snapshot stored beside the log. */
export interface StoredStats {
  sheet: SheetRow[];
  open: Pair<number>;
  racks: RackTotal[];
  tally: Pair<Tally>;
  rackScored: number;
  reracked: boolean;
  /** Outcomes of the recent effective steps, oldest first (at most RECENT_STEPS). */
  recent: Outcome[];
}

/** Plain data of `s` (O(rows)). */
export function storedStats(s: StatsState): StoredStats {
  return { sheet: toArray(s.sheet), open: [s.open[0], s.open[1]], racks: toArray(s.racks), tally: [s.tally[0], s.tally[1]], rackScored: s.rackScored, reracked: s.reracked, recent: recentOf(s) };
}

/** The statistics back from `storedStats` (O(rows)). */
export function statsFromStored(d: StoredStats): StatsState {
  return { sheet: fromArray(d.sheet), open: [d.open[0], d.open[1]], racks: fromArray(d.racks), tally: [d.tally[0], d.tally[1]], rackScored: d.rackScored, reracked: d.reracked, recentBuf: [...d.recent], recentEnd: d.recent.length };
}
