/**
 * The auto-director's pure core (`/director/<eventId>`, web/src/director): how interesting each table of an
 * event is right now (`rankTables`), whether a table is between shots (`betweenShots`), and whether to cut the
 * stream's program to another table (`decideCut`). No clock here: every time is passed in (ms).
 *
 * Interest is a sum of points, each part a `Reason` with its numbers so a page can word it in any language:
 * - `close-finish`: both players past half their race and close to each other (up to 30);
 * - `hill-hill`: both players on the hill, i.e. each needs at most `hillShare` of the race (35);
 * - `about-to-win`: the player at the table is on the hill (25; 35 while on a run);
 * - `run`: a run in progress of at least `runFrom` balls (3 + 2 per ball, at most 40); a run is counted in points,
 *   so in Rotation (balls worth 1–15) 8 points, the average ball, count as one ball;
 * - `shot-clock`: the shot clock running with at most `clockFromMs` left (10–30, more as it runs out);
 * - `two-fouls`: the player at the table is on two fouls (a third costs 15 points: 15);
 * - `tv-table`: the event's TV (featured) table (10), so it wins a tie and holds the program on a quiet floor.
 * A table with no match on it, or whose match is won, scores 0 (`idle`, `finished`).
 */
import type { LiveLine } from './protocol/event';
import type { PlayerKey } from './protocol/vocabulary';
import type { ShotClockStatus } from './shot-clock';

/** Why a table is interesting: a kind, its points, and the numbers a page words it with. */
export type Reason =
  | { kind: 'close-finish'; points: number; needs: [number, number] }
  | { kind: 'hill-hill'; points: number; needs: [number, number] }
  | { kind: 'about-to-win'; points: number; player: PlayerKey; needs: number }
  | { kind: 'run'; points: number; player: PlayerKey; run: number }
  | { kind: 'shot-clock'; points: number; seconds: number }
  | { kind: 'two-fouls'; points: number; player: PlayerKey }
  | { kind: 'tv-table'; points: number };

/** The kinds of `Reason`, strongest first in a tie of points (a page's legend). */
export const REASON_KINDS = ['hill-hill', 'about-to-win', 'run', 'close-finish', 'shot-clock', 'two-fouls', 'tv-table'] as const;
export type ReasonKind = (typeof REASON_KINDS)[number];

/** What the director knows of one table: its id, its current match's live line (null: no match) and its shot clock. */
export interface TableFacts {
  /** Table id (the event's `EventTable.id`). */
  table: string;
  /** The current match's newest live line, or null when the table has no current match (or none seen yet). */
  line: Pick<LiveLine, 'discipline' | 'score' | 'targets' | 'turn' | 'run' | 'onTwoFouls' | 'winner'> | null;
  /** The current match's shot clock: its status and the ms left now (null: no clock). */
  clock: { status: ShotClockStatus; remainingMs: number } | null;
  /** The event's TV (featured) table. */
  tv: boolean;
}

/** A table's place in the ranking. */
export interface RankedTable {
  table: string;
  /** Interest points (0 = nothing going on), the sum of `reasons`' points. */
  score: number;
  /** Largest first. */
  reasons: Reason[];
  /** No live match on it: `idle` (no match) or `finished` (its match is won). */
  state: 'live' | 'idle' | 'finished';
}

/** Tunables of the ranking. */
export interface RankOptions {
  /** A player is on the hill when needing at most this share of the race (0 < x < 1; default 0.1: 10 of 100). */
  hillShare: number;
  /** Shortest run that counts (balls; default 3). */
  runFrom: number;
  /** The shot clock counts from this many ms left (default 10 000). */
  clockFromMs: number;
}

/** Rotation: the points of the average ball (1–15), so a run in points counts as balls. */
const ROTATION_BALL = 8;

/** The default ranking options. */
export const RANK_DEFAULTS: RankOptions = { hillShare: 0.1, runFrom: 3, clockFromMs: 10_000 };

const idx = (p: PlayerKey): 0 | 1 => (p === 'A' ? 0 : 1);

/** The interest of one table, with its reasons (largest first). */
export function rankTable(f: TableFacts, opts: RankOptions = RANK_DEFAULTS): RankedTable {
  const line = f.line;
  if (!line) return { table: f.table, score: 0, reasons: [], state: 'idle' };
  if (line.winner) return { table: f.table, score: 0, reasons: [], state: 'finished' };
  const reasons: Reason[] = [];
  const needs: [number, number] = [Math.max(0, line.targets[0] - line.score[0]), Math.max(0, line.targets[1] - line.score[1])];
  const hill = (i: 0 | 1) => needs[i] <= Math.max(1, Math.floor(line.targets[i] * opts.hillShare));
  const shooter = line.turn;
  const s = idx(shooter);
  if (hill(0) && hill(1)) reasons.push({ kind: 'hill-hill', points: 35, needs });
  else {
    // Close near the end: progress of the one further on (0.5 → 0, 1 → 1) times how close the two are (a gap of
    // 20 % of the race or more → 0).
    const share = (i: 0 | 1) => (line.targets[i] > 0 ? needs[i] / line.targets[i] : 0);
    const late = Math.max(0, Math.min(1, (0.5 - Math.min(share(0), share(1))) / 0.5));
    const close = Math.max(0, 1 - Math.abs(share(0) - share(1)) / 0.2);
    const points = Math.round(30 * late * close);
    if (points >= 5) reasons.push({ kind: 'close-finish', points, needs });
  }
  if (hill(s)) reasons.push({ kind: 'about-to-win', points: line.run > 0 ? 35 : 25, player: shooter, needs: needs[s] });
  const balls = line.discipline === 'rotation' ? Math.floor(line.run / ROTATION_BALL) : line.run;
  if (balls >= opts.runFrom) reasons.push({ kind: 'run', points: Math.min(40, 3 + 2 * balls), player: shooter, run: line.run });
  if (f.clock && f.clock.status === 'running' && f.clock.remainingMs <= opts.clockFromMs) {
    const left = Math.max(0, f.clock.remainingMs);
    reasons.push({ kind: 'shot-clock', points: Math.round(10 + 20 * (1 - left / opts.clockFromMs)), seconds: Math.ceil(left / 1000) });
  }
  if (line.onTwoFouls[s]) reasons.push({ kind: 'two-fouls', points: 15, player: shooter });
  if (f.tv) reasons.push({ kind: 'tv-table', points: 10 });
  reasons.sort((a, b) => b.points - a.points || REASON_KINDS.indexOf(a.kind) - REASON_KINDS.indexOf(b.kind));
  return { table: f.table, score: reasons.reduce((a, r) => a + r.points, 0), reasons, state: 'live' };
}

/**
 * The tables ranked by interest, most interesting first: by score, then live before idle or finished, then the
 * TV table, then the event's order (`tables`' order). Throws on a repeated table id (`tables[i].table`) and on
 * options out of range (naming the option).
 */
export function rankTables(tables: readonly TableFacts[], opts: RankOptions = RANK_DEFAULTS): RankedTable[] {
  if (!(opts.hillShare > 0 && opts.hillShare < 1)) throw new Error(`hillShare: must be between 0 and 1, got ${opts.hillShare}`);
  if (!(Number.isInteger(opts.runFrom) && opts.runFrom >= 1)) throw new Error(`runFrom: must be a whole number ≥ 1, got ${opts.runFrom}`);
  if (!(opts.clockFromMs > 0)) throw new Error(`clockFromMs: must be a number > 0, got ${opts.clockFromMs}`);
  const seen = new Set<string>();
  for (const [i, t] of tables.entries()) {
    if (seen.has(t.table)) throw new Error(`tables[${i}].table: "${t.table}" appears twice`);
    seen.add(t.table);
  }
  const live = (r: RankedTable) => (r.state === 'live' ? 0 : 1);
  return tables
    .map((f, i) => ({ r: rankTable(f, opts), tv: f.tv, i }))
    .sort((a, b) => b.r.score - a.r.score || live(a.r) - live(b.r) || Number(b.tv) - Number(a.tv) || a.i - b.i)
    .map((x) => x.r);
}

/** What tells whether a table is between shots. */
export interface ShotFacts {
  /** The table's match is live (a current match, not won). */
  live: boolean;
  /** ms since the director saw the last step recorded on the table's match; null: none seen since it opened. */
  sinceStepMs: number | null;
  /** The table's shot clock status, null without a clock. */
  clock: ShotClockStatus | null;
}

/**
 * Whether a table is between shots, so a cut away from it loses nothing. "Between shots" is, from the live state:
 * - nothing to interrupt: no match on the table, or its match is won;
 * - the settle window: a step was recorded on it at most `settleMs` ago. The scorer records a shot once the balls
 *   have stopped, so this is the stretch after one shot while the player walks to the next;
 * - the shot clock (when the match has one) is idle or paused: the next shot has not started (a break being
 *   racked, a pending choice, a time-out).
 * Anything else (the settle window over with the clock running or expired, or no step seen since the page opened)
 * counts as a shot in progress: the director waits. `settleMs` must be ≥ 0 (else an Error naming `settleMs`).
 */
export function betweenShots(f: ShotFacts, settleMs: number): boolean {
  if (!(settleMs >= 0)) throw new Error(`settleMs: must be a number ≥ 0, got ${settleMs}`);
  if (!f.live) return true;
  if (f.clock === 'idle' || f.clock === 'paused') return true;
  return f.sinceStepMs !== null && f.sinceStepMs >= 0 && f.sinceStepMs <= settleMs;
}

/** A manual pick of the producer: this table, until `until` (ms, the page's clock) or, null, until resumed. */
export interface Override {
  table: string;
  until: number | null;
}

/** Whether `override` still holds at `now` (ms, the same clock as its `until`). */
export function overrideActive(override: Override | null, now: number): override is Override {
  return override !== null && (override.until === null || now < override.until);
}

/** What `decideCut` is told. */
export interface CutInput {
  /** `rankTables`' answer. */
  ranking: readonly RankedTable[];
  /** The table whose scene is on the program now, or null (another scene, or not known). */
  onAir: string | null;
  /** ms since the last cut (any cut, the director's or the producer's), null: none yet. */
  sinceCutMs: number | null;
  /** A shot is in progress on the table on air (`!betweenShots(...)`); ignored with nothing on air. */
  shotInProgress: boolean;
  /** Minimum time on a table between two cuts (ms, ≥ 0). */
  holdMs: number;
  /** How many interest points the best table must be ahead of the one on air to take its place (≥ 0). */
  margin: number;
  /** The producer's pick while it holds (`overrideActive`), else null: the director cuts nothing by itself meanwhile. */
  override: Override | null;
  /** Tables that may be cut to (those with a scene); the others are skipped. */
  cuttable: ReadonlySet<string>;
}

/** Why the director stays: the producer holds a table, too soon after a cut, a shot under way, nothing better. */
export type StayReason = 'override' | 'hold' | 'shot' | 'on-top' | 'margin' | 'nothing';

/** `decideCut`'s answer: cut to `to` (why: `manual` pick, the `first` cut, or a `better` table and its reasons), or stay and why. */
export type CutDecision = { cut: true; to: string; why: 'manual' | 'first' | 'better'; reasons: Reason[] } | { cut: false; why: StayReason };

/**
 * Whether to cut the program to another table now, and why. The rules, in order:
 * 1. a producer's pick (`override`) holds: cut to it at once if it is not on air (the producer's word, whatever
 *    the hold or the shot), else stay (`override`): nothing is cut by itself while it holds;
 * 2. the best cuttable table (the first of `ranking` in `cuttable`); none, or an idle or finished one → stay
 *    (`nothing`: a live table is never left for one with nothing going on); it is on air → stay (`on-top`);
 * 3. less than `holdMs` since the last cut → stay (`hold`);
 * 4. a table on air with a shot in progress → stay (`shot`);
 * 5. a table on air whose score the best one does not beat by `margin` → stay (`margin`);
 * 6. else cut (`first` when nothing was on air, `better` otherwise).
 * So the director never cuts by itself inside the hold time, never during a shot on air and never while the
 * producer holds a table. Throws on a negative or non-number `holdMs` or `margin`, naming it.
 */
export function decideCut(i: CutInput): CutDecision {
  if (!(i.holdMs >= 0)) throw new Error(`holdMs: must be a number ≥ 0, got ${i.holdMs}`);
  if (!(i.margin >= 0)) throw new Error(`margin: must be a number ≥ 0, got ${i.margin}`);
  if (i.override) {
    if (i.override.table !== i.onAir && i.cuttable.has(i.override.table)) return { cut: true, to: i.override.table, why: 'manual', reasons: [] };
    return { cut: false, why: 'override' };
  }
  const best = i.ranking.find((r) => i.cuttable.has(r.table));
  if (!best || best.state !== 'live') return { cut: false, why: 'nothing' };
  if (best.table === i.onAir) return { cut: false, why: 'on-top' };
  if (i.sinceCutMs !== null && i.sinceCutMs < i.holdMs) return { cut: false, why: 'hold' };
  const onAir = i.onAir === null ? undefined : i.ranking.find((r) => r.table === i.onAir);
  if (i.onAir !== null && i.shotInProgress) return { cut: false, why: 'shot' };
  if (onAir && best.score < onAir.score + i.margin) return { cut: false, why: 'margin' };
  return { cut: true, to: best.table, why: i.onAir === null ? 'first' : 'better', reasons: best.reasons };
}
