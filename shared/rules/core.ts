/**
 * The engine's internal state, common to both disciplines (docs/rules.md §1.1), and the helpers every rule
 * function shares: turn/inning bookkeeping (§1.3, D-8), run and high run (§1.4, D-7), targets (§1.5).
 * Pure data; every transition returns a new object.
 */
import type { MatchSetup, Pair, PlayerKey } from '../protocol/setup';
import type { Awaiting, BallInHand, FoulPlacementFacts, NextUp, Outcome, RackPlacement } from '../protocol/state';
import { RACK_BALLS } from '../protocol/limits';
import { rackWinner } from './rack-won';

/** Internal state of a match between steps. Immutable by convention (transitions copy). */
export interface Core {
  score: Pair<number>;
  fouls: Pair<number>;
  innings: Pair<number>;
  highRun: Pair<number>;
  /** Who shoots next, or who must make the pending choice. */
  turn: PlayerKey;
  /** Points of the current turn of `turn` (gross, D-7). */
  run: number;
  /** `turn` has taken a shot in the current turn (an inning is open). */
  turnStarted: boolean;
  rack: number;
  /** Object balls on the table, ascending; null when unknown (14-1 picked up in progress or counts only). */
  table: readonly number[] | null;
  /** Number of object balls on the table. */
  count: number;
  awaiting: Awaiting;
  breakShot: boolean;
  ballInHand: BallInHand;
  rackPlacement: RackPlacement | null;
  winner: PlayerKey | null;
  /** 14-1: cue-ball placement for the player who accepts a pending choice (scratch → kitchen). */
  pendingBallInHand: BallInHand;
  /** 14-1 S-15: two-foul warning given (only with `requireTwoFoulWarning`). */
  warned: Pair<boolean>;
  /** Rotation R-10: a push out is allowed on the next shot. */
  pushOutAvailable: boolean;
  /** Rotation R-13: points per player in the current rack. */
  rackPoints: Pair<number>;
  rackClinchedBy: PlayerKey | null;
  /** Rotation R-8: what the pending foul placement may choose. */
  placement: FoulPlacementFacts | null;
}

/** The result of one decided step: the new core and what happened. */
export interface Transition {
  core: Core;
  outcome: Outcome;
}

/** Every object ball of a full rack, 1 to RACK_BALLS (14-1 §01, ROT §01), in order. */
export const ALL_BALLS: readonly number[] = Object.freeze(Array.from({ length: RACK_BALLS }, (_, i) => i + 1));

/** The other player. */
export const other = (p: PlayerKey): PlayerKey => (p === 'A' ? 'B' : 'A');
/** Index of a player in `Pair`s. */
export const idx = (p: PlayerKey): 0 | 1 => (p === 'A' ? 0 : 1);

/** Copy of a pair with one entry changed. */
export function withAt<T>(pair: Pair<T>, p: PlayerKey, value: T): Pair<T> {
  return idx(p) === 0 ? [value, pair[1]] : [pair[0], value];
}

/** Initial core: a fresh match (opening break by A, cue ball in hand behind the head string) or `setup.start`. */
export function initialCore(setup: MatchSetup): Core {
  const s = setup.start;
  const rotation = setup.discipline === 'rotation';
  let table: readonly number[] | null = ALL_BALLS;
  let count = 15;
  if (s?.onTable) {
    table = [...s.onTable].sort((a, b) => a - b);
    count = table.length;
  } else if (s?.ballsOnTable !== undefined) {
    count = s.ballsOnTable;
    table = count === 15 ? ALL_BALLS : null;
  }
  const score: Pair<number> = s?.score ? [...s.score] : [...setup.startScore];
  const rack = s?.rack ?? 1;
  // Rotation rack points are exact when picked up in rack 1 (all points so far came from this rack).
  const rackPoints: Pair<number> = rotation && s && rack === 1 ? [score[0] - setup.startScore[0], score[1] - setup.startScore[1]] : [0, 0];
  return {
    score,
    fouls: s?.fouls ? [...s.fouls] : [0, 0],
    innings: s?.innings ? [...s.innings] : [0, 0],
    highRun: s?.highRun ? [...s.highRun] : [0, 0],
    turn: s?.turn ?? setup.breaker ?? 'A',
    run: 0,
    turnStarted: false,
    rack,
    table,
    count,
    awaiting: null,
    breakShot: !s,
    ballInHand: s ? null : 'kitchen',
    rackPlacement: null,
    winner: null,
    pendingBallInHand: null,
    warned: [false, false],
    pushOutAvailable: false,
    rackPoints,
    rackClinchedBy: rackWinner(rackPoints),
    placement: null,
  };
}

/**
 * A fresh, unshared copy of a core to mutate inside one transition (the input is never touched).
 * Written out field by field: V8 copies this an order of magnitude faster than an object spread.
 * Pairs are shared with the source, so replace them (`withAt`), never mutate them in place.
 */
export function draftOf(c: Core): Core {
  return {
    score: c.score,
    fouls: c.fouls,
    innings: c.innings,
    highRun: c.highRun,
    turn: c.turn,
    run: c.run,
    turnStarted: c.turnStarted,
    rack: c.rack,
    table: c.table,
    count: c.count,
    awaiting: c.awaiting,
    breakShot: c.breakShot,
    ballInHand: c.ballInHand,
    rackPlacement: c.rackPlacement,
    winner: c.winner,
    pendingBallInHand: c.pendingBallInHand,
    warned: c.warned,
    pushOutAvailable: c.pushOutAvailable,
    rackPoints: c.rackPoints,
    rackClinchedBy: c.rackClinchedBy,
    placement: c.placement,
  };
}

/**
 * On a draft: open the shooter's inning if this is the first shot of a turn (docs/rules.md §1.3, D-8).
 * @returns the inning number when one was opened, else undefined.
 */
export function openInning(d: Core): number | undefined {
  if (d.turnStarted) return undefined;
  const n = d.innings[idx(d.turn)] + 1;
  d.innings = withAt(d.innings, d.turn, n);
  d.turnStarted = true;
  d.run = 0;
  return n;
}

/** On a draft: end the current turn and hand the table to `next` (run resets, D-7). */
export function endTurn(d: Core, next: PlayerKey): void {
  d.turn = next;
  d.run = 0;
  d.turnStarted = false;
}

/** On a draft: add legally scored points to the shooter: score, run and high run (§1.4, D-7). */
export function addPoints(d: Core, p: PlayerKey, points: number): void {
  const i = idx(p);
  d.run += points;
  d.score = withAt(d.score, p, d.score[i] + points);
  if (d.run > d.highRun[i]) d.highRun = withAt(d.highRun, p, d.run);
}

/** Whether the shooter has reached their target (§1.5; targets per player = handicap, 14-1 §11, ROT §12). */
export function reachedTarget(setup: MatchSetup, c: Core, p: PlayerKey): boolean {
  return c.score[idx(p)] >= setup.targets[idx(p)];
}

/** What a core leaves pending for the next step: who, which decision, ball in hand, a break, the winner. */
export function nextOf(c: Core): NextUp {
  return { turn: c.turn, awaiting: c.awaiting, ballInHand: c.ballInHand, breakShot: c.breakShot, rack: c.rack, winner: c.winner };
}

/** Where and by whom a step was taken; the fixed part of its outcome. */
export interface StepContext {
  kind: Outcome['kind'];
  by: PlayerKey;
  rack: number;
  inning: number | undefined;
  /** Points of `by`'s inning before this step (0 when the step opened it or is not a shot). */
  run: number;
}

/** Outcome facts beside the ones every outcome has (who, points, penalty, run, fouls standing, what is next). */
export type OutcomeExtras = Partial<
  Pick<
    Outcome,
    | 'balls'
    | 'turnEnd'
    | 'rerack'
    | 'foul'
    | 'fouls'
    | 'firstContact'
    | 'onBreak'
    | 'onPushOut'
    | 'dryBreak'
    | 'safety'
    | 'spotted'
    | 'spottedBalls'
    | 'clinched'
    | 'tieBreak'
    | 'choice'
    | 'placement'
  >
>;

/**
 * Build the outcome of a step from its context and the core it leaves (`d`, final): the run after it, the fouls
 * `by` has standing and what is pending come from `d`. Absent (undefined or false) extras stay absent: their keys
 * are there with the value undefined, which JSON leaves out. So every outcome a rule builds has one shape (the
 * keys in the order their JSON always had), and the statistics read its facts at a fixed place: outcomes of many
 * shapes made every read a slow (megamorphic) lookup, and every fact added a new backing store.
 */
export function outcomeOf(ctx: StepContext, d: Core, points: number, penalty: number, extras?: OutcomeExtras): Outcome {
  const o: Outcome = {
    kind: ctx.kind,
    by: ctx.by,
    points,
    penalty,
    run: ctx.kind === 'shot' ? ctx.run + points : 0,
    standingFouls: d.fouls[idx(ctx.by)],
    rack: ctx.rack,
    next: nextOf(d),
    inning: ctx.inning,
    balls: undefined,
    turnEnd: undefined,
    rerack: undefined,
    foul: undefined,
    fouls: undefined,
    firstContact: undefined,
    onBreak: undefined,
    onPushOut: undefined,
    dryBreak: undefined,
    safety: undefined,
    spotted: undefined,
    spottedBalls: undefined,
    clinched: undefined,
    tieBreak: undefined,
    choice: undefined,
    placement: undefined,
  };
  if (extras) {
    // The facts the call gives (each an own key of a small literal), then the two whose false or 0 means absent.
    Object.assign(o, extras);
    if (!o.safety) o.safety = undefined;
    if (!o.spotted) o.spotted = undefined;
  }
  return o;
}
