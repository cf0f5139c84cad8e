/**
 * Statistics for the dashboard, kept incrementally: per-player innings, average, high run, safeties, fouls,
 * breaking fouls, three-foul penalties, runs per inning; the score sheet (one row per inning per player,
 * docs/rules.md §3.13; Rotation with balls and rack totals) and the consistency check (14-1 INV-1/INV-2,
 * Rotation INV-R1).
 *
 * `StatsState` is evolved by each effective step (`evolveStats`, O(1) in the length of the match) and kept
 * beside the engine's core on the match and on each history node, so undo restores the previous statistics for
 * free. A version is one small object: the counters, and an end in a log of fixed-width records that holds the
 * sheet rows and rack totals (shared/stats-log.ts; a shot appends a record or two there, no object). The rows
 * new or changed between two versions (`statsDelta`) cost only what changed; `statsView` builds the whole
 * `MatchStats` (O(records)), for a subscription or a request, never per step.
 */
import type { MatchSetup, Pair } from './protocol/setup';
import type { ConsistencyCheck, Outcome, RackTotal, SheetRow, TurnEnd } from './protocol/state';
import { playersOf } from './protocol/stats-delta';
import type { MatchStats, PlayerTotals, ScorebugFigures, StatsDelta, TailPatch, WindowPatch } from './protocol/wire';
import { rackWinner } from './rules/rack-won';
import { type Core, idx, initialCore } from './rules/core';
import {
  BALLS_AT,
  commonEnd,
  FLAGS,
  INNING,
  logAt,
  PENALTY,
  POINTS,
  pushRecord,
  RACK,
  RB0_AT,
  RB0_N,
  RB1_AT,
  RB1_N,
  roomForBalls,
  RP0,
  RP1,
  segmentsOf,
  SLOT,
  type StatsLog,
  TOTAL,
  W,
  writable,
} from './stats-log';

/** Score-sheet marker of each way a turn ends (docs/rules.md §3.13). */
export const MARKS: Record<TurnEnd, SheetRow['mark']> = {
  miss: '',
  safety: 'S',
  foul: 'F',
  'breaking-foul': 'BF',
  'third-foul': 'TF',
  'illegal-break': 'IB',
  'push-out': 'PO',
  win: 'W',
  'lost-break': '',
};

/** The sheet markers by their index in a row record's flags (shared/stats-log.ts). */
const MARK_LIST: readonly SheetRow['mark'][] = ['', 'S', 'F', 'BF', 'TF', 'IB', 'PO', 'W'];
/** Index in MARK_LIST of each way a turn ends. */
const MARK_INDEX = Object.fromEntries(Object.entries(MARKS).map(([end, mark]) => [end, MARK_LIST.indexOf(mark)])) as Record<TurnEnd, number>;

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

/**
 * The counters that change on few steps (fouls, safeties, penalties, racks won), shared by the versions between
 * two such steps. `[x]0` is player A's, `[x]1` player B's.
 */
interface Counts {
  readonly safeties0: number;
  readonly safeties1: number;
  readonly fouls0: number;
  readonly fouls1: number;
  readonly breakingFouls0: number;
  readonly breakingFouls1: number;
  readonly threeFouls0: number;
  readonly threeFouls1: number;
  readonly penalties0: number;
  readonly penalties1: number;
  /** Racks each player won (R-13 `rackWinner` of each rack total), for a Rotation race's scorebug. */
  readonly won0: number;
  readonly won1: number;
  /** Some rack total was written after a later rack's (racks then are not in log order). */
  readonly racksOutOfOrder: boolean;
}

/** The statistics of a match at one version, evolved step by step. Immutable; versions share their log. */
export interface StatsState {
  /** Log holding the sheet rows and rack totals (null before the first shot). */
  readonly log: StatsLog | null;
  /** This version's records are those of `log` below `end`. */
  readonly end: number;
  /** Number of sheet rows. */
  readonly rows: number;
  /** Per player, the sheet row of the inning still open, or −1. */
  readonly open0: number;
  readonly open1: number;
  /** Number of rack totals (racks with points). */
  readonly racks: number;
  /** Absolute index of the newest record of the highest rack with points, or −1. */
  readonly rackTop: number;
  /** Per player, points gained on every step (gross; INV-1): the counter that changes on most steps. */
  readonly scored0: number;
  readonly scored1: number;
  readonly counts: Counts;
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

const NO_COUNTS: Counts = {
  safeties0: 0,
  safeties1: 0,
  fouls0: 0,
  fouls1: 0,
  breakingFouls0: 0,
  breakingFouls1: 0,
  threeFouls0: 0,
  threeFouls1: 0,
  penalties0: 0,
  penalties1: 0,
  won0: 0,
  won1: 0,
  racksOutOfOrder: false,
};

/** Statistics before any step. */
export const EMPTY_STATS: StatsState = {
  log: null,
  end: 0,
  rows: 0,
  open0: -1,
  open1: -1,
  racks: 0,
  rackTop: -1,
  scored0: 0,
  scored1: 0,
  counts: NO_COUNTS,
  rackScored: 0,
  reracked: false,
  recentBuf: Object.freeze([]) as unknown as Outcome[],
  recentEnd: 0,
};

/** The outcomes of the last RECENT_STEPS effective steps of `s`, oldest first (a new array): `MatchStats.recent`. */
function recentOf(s: StatsState): Outcome[] {
  return s.recentBuf.slice(Math.max(0, s.recentEnd - RECENT_STEPS), s.recentEnd);
}

/** The outcome of the last effective step of `s` (`MatchState.last`), or null before any. */
export function lastOutcome(s: StatsState): Outcome | null {
  return s.recentEnd > 0 ? s.recentBuf[s.recentEnd - 1]! : null;
}

/** Player `k`'s counters in `s`. */
function tallyOf(s: StatsState, k: 0 | 1): Tally {
  const c = s.counts;
  return k === 0
    ? { safeties: c.safeties0, fouls: c.fouls0, breakingFouls: c.breakingFouls0, threeFouls: c.threeFouls0, scored: s.scored0, penalties: c.penalties0 }
    : { safeties: c.safeties1, fouls: c.fouls1, breakingFouls: c.breakingFouls1, threeFouls: c.threeFouls1, scored: s.scored1, penalties: c.penalties1 };
}

/** `c` with player `k`'s step added: its penalty, safety and foul, and a change of racks won (`wonBy` ±1, `lostBy` −1). */
function countsWith(c: Counts, k: 0 | 1, penalty: number, safety: boolean, foul: Outcome['foul']): Counts {
  const s = safety ? 1 : 0;
  const f = foul === 'foul' || foul === 'third-foul' ? 1 : 0;
  const bf = foul === 'breaking-foul' ? 1 : 0;
  const tf = foul === 'third-foul' ? 1 : 0;
  return {
    safeties0: c.safeties0 + (k === 0 ? s : 0),
    safeties1: c.safeties1 + (k === 1 ? s : 0),
    fouls0: c.fouls0 + (k === 0 ? f : 0),
    fouls1: c.fouls1 + (k === 1 ? f : 0),
    breakingFouls0: c.breakingFouls0 + (k === 0 ? bf : 0),
    breakingFouls1: c.breakingFouls1 + (k === 1 ? bf : 0),
    threeFouls0: c.threeFouls0 + (k === 0 ? tf : 0),
    threeFouls1: c.threeFouls1 + (k === 1 ? tf : 0),
    penalties0: c.penalties0 + (k === 0 ? penalty : 0),
    penalties1: c.penalties1 + (k === 1 ? penalty : 0),
    won0: c.won0,
    won1: c.won1,
    racksOutOfOrder: c.racksOutOfOrder,
  };
}

/** `c` with racks won changed by `d0` (A) and `d1` (B), and racks out of order when `outOfOrder`. */
function countsOfRacks(c: Counts, d0: number, d1: number, outOfOrder: boolean): Counts {
  return {
    safeties0: c.safeties0,
    safeties1: c.safeties1,
    fouls0: c.fouls0,
    fouls1: c.fouls1,
    breakingFouls0: c.breakingFouls0,
    breakingFouls1: c.breakingFouls1,
    threeFouls0: c.threeFouls0,
    threeFouls1: c.threeFouls1,
    penalties0: c.penalties0,
    penalties1: c.penalties1,
    won0: c.won0 + d0,
    won1: c.won1 + d1,
    racksOutOfOrder: c.racksOutOfOrder || outOfOrder,
  };
}

/** Rack number of the rack record at absolute index `i` of a version in `log`. */
function rackNumberAt(log: StatsLog, i: number): number {
  const l = logAt(log, i);
  return -1 - l.rec[(i - l.base) * W + SLOT]!;
}

/** Absolute index of the newest record with `slot` (a row, or −1 − rack) below `end` in `log`, or −1. */
function newestOf(log: StatsLog | null, end: number, slot: number): number {
  let l = log;
  for (let i = end - 1; i >= 0; i--) {
    while (i < l!.base) l = l!.parent;
    if (l!.rec[(i - l!.base) * W + SLOT] === slot) return i;
  }
  return -1;
}

/**
 * Copy `n` ball numbers at `at` in `from`'s ball store to the end of `to`'s (with room for `extra` more);
 * returns where they start in `to`. When they already end `to`'s store, nothing is copied.
 */
function ballsInto(to: StatsLog, from: StatsLog | null, at: number, n: number, extra: number): number {
  if (from === to && at + n === to.ballsLen) {
    roomForBalls(to, extra);
    return at;
  }
  const start = roomForBalls(to, n + extra);
  // Element by element: at most 15 numbers, where a `subarray` view would be a new object each time.
  const src = from === null ? to.balls : from.balls;
  const dst = to.balls;
  for (let j = 0; j < n; j++) dst[start + j] = src[at + j]!;
  to.ballsLen = start + n;
  return start;
}

/** The `n` ball numbers at `from` in a ball store, as a new array (element by element: no `subarray` view). */
function ballList(store: Uint8Array, from: number, n: number): number[] {
  const out: number[] = [];
  for (let j = 0; j < n; j++) out.push(store[from + j]!);
  return out;
}

/** Append `balls` to the end of `log`'s ball store (room made by `ballsInto`). */
function appendBalls(log: StatsLog, balls: readonly number[]): void {
  let at = log.ballsLen;
  for (let i = 0; i < balls.length; i++) log.balls[at++] = balls[i]!;
  log.ballsLen = at;
}

/**
 * The statistics after one effective step (not undo: undo restores the statistics kept before the step).
 * `before` is the core before the step, `after` the core after it. O(1) in the length of the match.
 * `dropsUndone`: the caller keeps no statistics of steps an undo took back (a replay), so their records may be
 * overwritten instead of `s` starting a new log (shared/stats-log.ts `writable`).
 */
export function evolveStats(setup: MatchSetup, s: StatsState, before: Core, o: Outcome, after: Core, dropsUndone = false): StatsState {
  // Each outcome fact read once: outcomes come in many shapes (their optional facts), so every read is a slow lookup.
  const by = o.by;
  const points = o.points;
  const penalty = o.penalty;
  const turnEnd = o.turnEnd;
  const rerack = o.rerack;
  const isShot = o.kind === 'shot';
  const safety = !!o.safety;
  const foul = o.foul;
  const k = idx(by);
  // The rare counters are a new object only when one of them changes (most steps: a ball, a miss, a choice).
  let counts = penalty !== 0 || safety || foul ? countsWith(s.counts, k, penalty, safety, foul) : s.counts;
  const scored0 = k === 0 ? s.scored0 + points : s.scored0;
  const scored1 = k === 1 ? s.scored1 + points : s.scored1;
  // `s`'s recent steps with `o` appended: in place at the end of the shared buffer when `s` is its newest version
  // (O(1), no allocation), else (another version appended already, or the buffer is long or the empty one) into a
  // new buffer holding the last RECENT_STEPS (O(RECENT_STEPS)).
  let recentBuf = s.recentBuf;
  if (s.recentEnd === 0 || recentBuf.length !== s.recentEnd || recentBuf.length >= 8 * RECENT_STEPS) {
    recentBuf = recentBuf.slice(Math.max(0, s.recentEnd - RECENT_STEPS + 1), s.recentEnd);
  }
  recentBuf.push(o);
  const recentEnd = recentBuf.length;
  const rackScored = rerack ? 0 : s.rackScored + (isShot ? points : 0);
  const reracked = s.reracked || rerack !== undefined;
  if (!isShot) {
    return {
      log: s.log,
      end: s.end,
      rows: s.rows,
      open0: s.open0,
      open1: s.open1,
      racks: s.racks,
      rackTop: s.rackTop,
      scored0,
      scored1,
      counts,
      rackScored,
      reracked,
      recentBuf,
      recentEnd,
    };
  }

  // The inning's row: a new one when this shot opened an inning (or none is open), else the open one, as a whole
  // new record (the open row's newest record is read for what it held).
  const rotation = setup.discipline === 'rotation';
  const inning = o.inning;
  const shotRack = o.rack ?? before.rack;
  const balls = o.balls;
  const openNow = k === 0 ? s.open0 : s.open1;
  const fresh = inning !== undefined || openNow < 0;
  const slot = fresh ? s.rows : openNow;
  const log = writable(s.log, s.end, dropsUndone);
  let flags: number = k;
  let rowInning: number;
  let rowRack: number;
  let rowPoints = points;
  let rowPenalty = penalty;
  let ballsAt = 0;
  let ballCount = 0;
  if (fresh) {
    rowInning = inning ?? before.innings[k];
    rowRack = shotRack;
    if (rotation && balls) {
      ballsAt = roomForBalls(log, balls.length);
      appendBalls(log, balls);
      ballCount = balls.length;
    }
  } else {
    const i = newestOf(s.log, s.end, slot);
    const l = logAt(s.log!, i);
    const r = l.rec;
    const at = (i - l.base) * W;
    flags = r[at + FLAGS]!;
    rowInning = r[at + INNING]!;
    rowRack = r[at + RACK]!;
    rowPoints += r[at + POINTS]!;
    rowPenalty += r[at + PENALTY]!;
    if (rotation) {
      const n = flags >>> 8;
      const extra = balls ? balls.length : 0;
      ballsAt = l === log && extra === 0 ? r[at + BALLS_AT]! : ballsInto(log, l, r[at + BALLS_AT]!, n, extra);
      if (balls) appendBalls(log, balls);
      ballCount = n + extra;
    }
  }
  const mark = turnEnd ? MARK_INDEX[turnEnd] : (flags >>> 3) & 7;
  const rowAt = pushRecord(log);
  const rec = log.rec;
  rec[rowAt + SLOT] = slot;
  rec[rowAt + FLAGS] = (flags & 1) | (turnEnd ? 0 : 2) | (rotation ? 4 : 0) | (mark << 3) | (ballCount << 8);
  rec[rowAt + INNING] = rowInning;
  rec[rowAt + RACK] = rowRack;
  rec[rowAt + POINTS] = rowPoints;
  rec[rowAt + PENALTY] = rowPenalty;
  rec[rowAt + TOTAL] = after.score[k];
  rec[rowAt + BALLS_AT] = ballsAt;
  const openAt = turnEnd ? -1 : slot;

  // Points belong to the rack the shot was played in (a shot that triggers a re-rack counts in the old one).
  let racks = s.racks;
  let rackTop = s.rackTop;
  if (points > 0) {
    // The rack's newest record: usually the highest rack's (rackTop); a new rack above it has none.
    const top = rackTop >= 0 ? rackNumberAt(s.log!, rackTop) : -1;
    const older = top > shotRack;
    const i = top === shotRack ? rackTop : older ? newestOf(s.log, s.end, -1 - shotRack) : -1;
    let p0 = 0;
    let p1 = 0;
    let b0 = 0;
    let n0 = 0;
    let b1 = 0;
    let n1 = 0;
    const shotBalls = rotation && balls ? balls : undefined;
    if (i >= 0) {
      const l = logAt(s.log!, i);
      const r = l.rec;
      const at = (i - l.base) * W;
      p0 = r[at + RP0]!;
      p1 = r[at + RP1]!;
      n0 = r[at + RB0_N]!;
      n1 = r[at + RB1_N]!;
      b0 = l === log && (k === 1 || !shotBalls) ? r[at + RB0_AT]! : ballsInto(log, l, r[at + RB0_AT]!, n0, k === 0 && shotBalls ? shotBalls.length : 0);
      if (k === 0 && shotBalls) appendBalls(log, shotBalls);
      b1 = l === log && (k === 0 || !shotBalls) ? r[at + RB1_AT]! : ballsInto(log, l, r[at + RB1_AT]!, n1, k === 1 && shotBalls ? shotBalls.length : 0);
      if (k === 1 && shotBalls) appendBalls(log, shotBalls);
    } else {
      racks++;
      if (shotBalls) {
        const start = roomForBalls(log, shotBalls.length);
        appendBalls(log, shotBalls);
        if (k === 0) b0 = start;
        else b1 = start;
      }
    }
    const wonBefore = i >= 0 ? rackWinner([p0, p1]) : null;
    if (k === 0) {
      p0 += points;
      if (shotBalls) n0 += shotBalls.length;
    } else {
      p1 += points;
      if (shotBalls) n1 += shotBalls.length;
    }
    const wonAfter = rackWinner([p0, p1]);
    const rackAt = pushRecord(log);
    const rr = log.rec;
    rr[rackAt + SLOT] = -1 - shotRack;
    rr[rackAt + RP0] = p0;
    rr[rackAt + RP1] = p1;
    rr[rackAt + RB0_AT] = b0;
    rr[rackAt + RB0_N] = n0;
    rr[rackAt + RB1_AT] = b1;
    rr[rackAt + RB1_N] = n1;
    if (!older) rackTop = log.len - 1;
    if (wonBefore !== wonAfter || older) {
      const d0 = (wonAfter === 'A' ? 1 : 0) - (wonBefore === 'A' ? 1 : 0);
      const d1 = (wonAfter === 'B' ? 1 : 0) - (wonBefore === 'B' ? 1 : 0);
      counts = countsOfRacks(counts, d0, d1, older);
    }
  }
  return {
    log,
    end: log.len,
    rows: fresh ? s.rows + 1 : s.rows,
    open0: k === 0 ? openAt : s.open0,
    open1: k === 1 ? openAt : s.open1,
    racks,
    rackTop,
    scored0,
    scored1,
    counts,
    rackScored,
    reracked,
    recentBuf,
    recentEnd,
  };
}

/** The sheet row of the row record at offset `at` of `log`. */
function rowOf(log: StatsLog, at: number): SheetRow {
  const r = log.rec;
  const flags = r[at + FLAGS]!;
  const player = flags & 1 ? 'B' : 'A';
  const inning = r[at + INNING]!;
  const rack = r[at + RACK]!;
  const points = r[at + POINTS]!;
  const penalty = r[at + PENALTY]!;
  const mark = MARK_LIST[(flags >>> 3) & 7]!;
  const total = r[at + TOTAL]!;
  // Each shape one literal, in the key order the rows always had (the state hash is of their JSON).
  if (flags & 4) {
    const from = r[at + BALLS_AT]!;
    const balls = ballList(log.balls, from, flags >>> 8);
    return flags & 2
      ? { player, inning, rack, points, penalty, mark, total, open: true, balls }
      : { player, inning, rack, points, penalty, mark, total, balls };
  }
  return flags & 2 ? { player, inning, rack, points, penalty, mark, total, open: true } : { player, inning, rack, points, penalty, mark, total };
}

/** The rack total of the rack record at offset `at` of `log`. */
function rackTotalOf(log: StatsLog, at: number): RackTotal {
  const r = log.rec;
  const b0 = r[at + RB0_AT]!;
  const b1 = r[at + RB1_AT]!;
  return {
    rack: -1 - r[at + SLOT]!,
    points: [r[at + RP0]!, r[at + RP1]!],
    balls: [ballList(log.balls, b0, r[at + RB0_N]!), ballList(log.balls, b1, r[at + RB1_N]!)],
  };
}

/** The whole score sheet of `s`, oldest row first (O(records)). */
function sheetOf(s: StatsState): SheetRow[] {
  const logs = new Array<StatsLog>(s.rows);
  const ats = new Array<number>(s.rows);
  for (const [l, from, to] of segmentsOf(s.log, s.end)) {
    for (let i = from; i < to; i++) {
      const at = (i - l.base) * W;
      const slot = l.rec[at + SLOT]!;
      if (slot >= 0) {
        logs[slot] = l;
        ats[slot] = at;
      }
    }
  }
  const out = new Array<SheetRow>(s.rows);
  for (let j = 0; j < s.rows; j++) out[j] = rowOf(logs[j]!, ats[j]!);
  return out;
}

/** The rack totals of `s`, ascending by rack (O(records)). */
function racksOf(s: StatsState): RackTotal[] {
  const newest = new Map<number, [StatsLog, number]>();
  for (const [l, from, to] of segmentsOf(s.log, s.end)) {
    for (let i = from; i < to; i++) {
      const at = (i - l.base) * W;
      const slot = l.rec[at + SLOT]!;
      if (slot < 0) newest.set(-1 - slot, [l, at]);
    }
  }
  return [...newest.keys()]
    .sort((a, b) => a - b)
    .map((rack) => {
      const [l, at] = newest.get(rack)!;
      return rackTotalOf(l, at);
    });
}

/** Rows `from` … of `s`'s sheet: the newest record of each, found from the end (O(records since row `from` began)). */
function rowsFrom(s: StatsState, from: number): SheetRow[] {
  const n = s.rows - from;
  const out = new Array<SheetRow>(n);
  let found = 0;
  let l = s.log;
  for (let i = s.end - 1; found < n; i--) {
    while (i < l!.base) l = l!.parent;
    const at = (i - l!.base) * W;
    const slot = l!.rec[at + SLOT]!;
    if (slot >= from && out[slot - from] === undefined) {
      out[slot - from] = rowOf(l!, at);
      found++;
    }
  }
  return out;
}

/**
 * Rack totals `from` … of `s` (ascending by rack). While the racks were written in order (always, bar a points
 * correction of an older rack), their newest records come highest rack first from the end of the log.
 */
function racksFrom(s: StatsState, from: number): RackTotal[] {
  const n = s.racks - from;
  if (n <= 0) return [];
  if (s.counts.racksOutOfOrder) return racksOf(s).slice(from);
  const out: RackTotal[] = [];
  let last = 0;
  let l = s.log;
  for (let i = s.end - 1; out.length < n; i--) {
    while (i < l!.base) l = l!.parent;
    const at = (i - l!.base) * W;
    const slot = l!.rec[at + SLOT]!;
    if (slot < 0 && slot !== last) {
      out.push(rackTotalOf(l!, at));
      last = slot;
    }
  }
  return out.reverse();
}

/** Number of `s`'s racks below rack `rack`. */
function racksBelow(s: StatsState, rack: number): number {
  const top = s.rackTop >= 0 ? rackNumberAt(s.log!, s.rackTop) : -1;
  if (rack > top) return s.racks;
  if (rack === top) return s.racks - 1;
  return racksOf(s).filter((r) => r.rack < rack).length;
}

/**
 * The tail patches of the sheet and the rack totals from version `a` to version `b`: from the first row (rack)
 * either version wrote since the records they share, the rows of `b`. O(records not shared) for two versions
 * of one match: a step or an undo between consecutive versions costs O(1).
 */
function patches(a: StatsState, b: StatsState): { sheet: TailPatch<SheetRow>; racks: TailPatch<RackTotal> } {
  const common = commonEnd(a.log, a.end, b.log, b.end);
  let rowFrom = Math.min(a.rows, b.rows);
  let rackFrom = Math.min(a.racks, b.racks);
  for (const v of [a, b]) {
    let l = v.log;
    for (let i = v.end - 1; i >= common; i--) {
      while (i < l!.base) l = l!.parent;
      const slot = l!.rec[(i - l!.base) * W + SLOT]!;
      if (slot >= 0) rowFrom = Math.min(rowFrom, slot);
      else rackFrom = Math.min(rackFrom, racksBelow(a, -1 - slot), racksBelow(b, -1 - slot));
    }
  }
  return { sheet: { from: rowFrom, rows: rowsFrom(b, rowFrom) }, racks: { from: rackFrom, rows: racksFrom(b, rackFrom) } };
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
    const t = tallyOf(s, k);
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
 * `racksWon`, counted as the racks are written by the same rule, R-13 `rackWinner`; null for 14-1 and for a
 * single rack to 61, whose one rack is the match). O(1).
 */
export function scorebugFigures(setup: MatchSetup, s: StatsState, now: Core): ScorebugFigures {
  const race = setup.discipline === 'rotation' && setup.options.format === 'race';
  return {
    average: [averageOf(setup, now, 0), averageOf(setup, now, 1)],
    racksWon: race ? [s.counts.won0, s.counts.won1] : null,
  };
}

/** The whole statistics at one version (O(records): for a subscription or a request, never per step). */
export function statsView(setup: MatchSetup, s: StatsState, now: Core): MatchStats {
  const sheet = sheetOf(s);
  return {
    players: playersOf(totalsOf(setup, s, now), sheet),
    sheet,
    racks: racksOf(s),
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
  const { sheet, racks } = patches(from, to);
  return {
    since,
    players: totalsOf(setup, to, now),
    sheet,
    racks,
    recent: recentPatch(from, to),
    check: checkOf(setup, to, now),
  };
}

/**
 * The recent outcomes of `to` as a change of those of `from`: the run of `to`'s list that `from`'s holds
 * too (outcomes are shared by identity between versions evolved from one another) is kept, the rest sent.
 * O(RECENT_STEPS²). Without a shared outcome the whole list is sent.
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
  return consistencyCheck(setup, initialCore(setup), now, s.scored0 + s.scored1, s.counts.penalties0 + s.counts.penalties1, inRack);
}

/**
 * The rules' consistency check, relative to where recording began (`first`: a match may be picked up in
 * progress). 14-1 INV-1: change of the score sum = balls legally scored − foul points; INV-2: balls scored in
 * the current rack (`inRack`, null when the rack began before recording) = 15 − balls on the table. Rotation
 * INV-R1: change of the score sum = 120 per rack finished + points taken off the current table (a 61
 * tie-break adds 1). `scored` and `penalties` are the totals of every effective step.
 */
export function consistencyCheck(setup: MatchSetup, first: Core, now: Core, scored: number, penalties: number, inRack: number | null): ConsistencyCheck {
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

/** `StatsState` as plain JSON data (the sheet and rack totals as arrays), for the snapshot stored beside the log. */
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

/** Plain data of `s` (O(records)). */
export function storedStats(s: StatsState): StoredStats {
  return {
    sheet: sheetOf(s),
    open: [s.open0, s.open1],
    racks: racksOf(s),
    tally: [tallyOf(s, 0), tallyOf(s, 1)],
    rackScored: s.rackScored,
    reracked: s.reracked,
    recent: recentOf(s),
  };
}

/** The statistics back from `storedStats` (O(rows + racks): one record each, in a new log). */
export function statsFromStored(d: StoredStats): StatsState {
  const log = writable(null, 0);
  d.sheet.forEach((row, slot) => {
    const balls = row.balls;
    const ballsAt = balls ? roomForBalls(log, balls.length) : 0;
    if (balls) appendBalls(log, balls);
    const mark = MARK_LIST.indexOf(row.mark);
    if (mark < 0) throw new RangeError(`stored sheet row ${slot}: unknown mark ${JSON.stringify(row.mark)}`);
    const at = pushRecord(log);
    const r = log.rec;
    r[at + SLOT] = slot;
    r[at + FLAGS] = (row.player === 'B' ? 1 : 0) | (row.open ? 2 : 0) | (balls ? 4 : 0) | (mark << 3) | ((balls?.length ?? 0) << 8);
    r[at + INNING] = row.inning;
    r[at + RACK] = row.rack;
    r[at + POINTS] = row.points;
    r[at + PENALTY] = row.penalty;
    r[at + TOTAL] = row.total;
    r[at + BALLS_AT] = ballsAt;
  });
  let won0 = 0;
  let won1 = 0;
  for (const t of d.racks) {
    const b0 = roomForBalls(log, t.balls[0].length);
    appendBalls(log, t.balls[0]);
    const b1 = roomForBalls(log, t.balls[1].length);
    appendBalls(log, t.balls[1]);
    const at = pushRecord(log);
    const r = log.rec;
    r[at + SLOT] = -1 - t.rack;
    r[at + RP0] = t.points[0];
    r[at + RP1] = t.points[1];
    r[at + RB0_AT] = b0;
    r[at + RB0_N] = t.balls[0].length;
    r[at + RB1_AT] = b1;
    r[at + RB1_N] = t.balls[1].length;
    const by = rackWinner(t.points);
    if (by === 'A') won0++;
    if (by === 'B') won1++;
  }
  const [a, b] = d.tally;
  const counts: Counts = {
    safeties0: a.safeties,
    safeties1: b.safeties,
    fouls0: a.fouls,
    fouls1: b.fouls,
    breakingFouls0: a.breakingFouls,
    breakingFouls1: b.breakingFouls,
    threeFouls0: a.threeFouls,
    threeFouls1: b.threeFouls,
    penalties0: a.penalties,
    penalties1: b.penalties,
    won0,
    won1,
    racksOutOfOrder: false,
  };
  return {
    log,
    end: log.len,
    rows: d.sheet.length,
    open0: d.open[0],
    open1: d.open[1],
    racks: d.racks.length,
    rackTop: d.racks.length > 0 ? log.len - 1 : -1,
    scored0: a.scored,
    scored1: b.scored,
    counts,
    rackScored: d.rackScored,
    reracked: d.reracked,
    recentBuf: [...d.recent],
    recentEnd: d.recent.length,
  };
}
