/**
 * The public match state: what every page shows and what the case bank's `expect` checks (docs/case-format.md).
 * Produced by the engine's `view()`; pure data, JSON-serialisable, identical on server and browser.
 */
import type { Placement, ShotFoul } from './steps';
import type { Discipline, Pair, PlayerKey, Ruleset } from './vocabulary';

export { RACK_CLINCH } from './vocabulary';

/** A decision the rules wait for before the next shot (docs/case-format.md `awaiting`). */
export type Awaiting = null | 'break-foul-choice' | 'three-foul-choice' | 'push-out-choice' | 'illegal-break-choice' | 'foul-placement';

/** Where the cue ball may be placed by the player to shoot: null = played where it lies. */
export type BallInHand = null | 'kitchen' | 'anywhere';

/** 14-1 placement after a re-rack (S-16–S-18; 14-1 §07). */
export interface RackPlacement {
  cueBall: 'as-is' | 'kitchen' | 'head-spot' | 'center-spot';
  breakBall: 'as-is' | 'head-spot' | 'center-spot' | 'racked';
  racked: 14 | 15;
}

/** Rotation: what the pending foul placement may choose (decides the legal combinations). */
export interface FoulPlacementFacts {
  /** Third consecutive foul: the cue ball is in hand anywhere. */
  thirdFoul: boolean;
  /** The cue ball was pocketed or left the table: it cannot stay as it lies (D-20). */
  cueBallLost: boolean;
  /** The lowest ball was pocketed or left the table on the foul: it goes to the centre or foot spot. */
  lowestBallLost: boolean;
}

/** How a turn ended, as the score sheet marks it (docs/rules.md §3.13). */
export type TurnEnd = 'miss' | 'safety' | 'foul' | 'breaking-foul' | 'third-foul' | 'illegal-break' | 'push-out' | 'win' | 'lost-break';

/**
 * Why a shot was a foul (14-1 S-9/S-12, Rotation ), as the referee reported it: the cue ball pocketed
 * (`scratch`) or off the table, no ball hit, the lowest ball not hit first (`wrong-ball`, Rotation), an
 * object ball off the table, no ball to a cushion after contact (`no-rail`), one of the other fouls of the
 * report (docs/case-format.md `fouls`; `time`: the shot clock ran out before the stroke, D-32), or Rotation's illegal
 * break taken as a foul (D-17 `illegalBreakPolicy: 'foul'`).
 */
export type FoulReason = 'scratch' | 'cue-ball-off-table' | 'no-contact' | 'wrong-ball' | 'ball-off-table' | 'no-rail' | ShotFoul | 'illegal-break';

/** What a step left pending: who shoots or decides next and how — the situation after the step. */
export interface NextUp {
  /** Who shoots next, or who must make the pending choice. */
  turn: PlayerKey;
  /** The decision the rules now wait for (null: play on). */
  awaiting: Awaiting;
  /** Where `turn` may place the cue ball for the next shot (null: as it lies). */
  ballInHand: BallInHand;
  /** The next shot is an opening break by `turn` (break requirements apply). */
  breakShot: boolean;
  /** Rack number after the step. */
  rack: number;
  /** Set when the step ended the match. */
  winner: PlayerKey | null;
}

/** A choice made by the player entitled to it (14-1 S-9/S-14, Rotation R-10/D-17). */
export type ChoiceMade = 'accept' | 'rebreak' | 'rerack' | 'shoot' | 'pass';

/**
 * What the last recorded step did, as facts only (no words): who, what, points, penalty, the run after it,
 * fouls standing and what is pending. The pages word it in each language (web/src/lib/format.ts).
 */
export interface Outcome {
  /** Step kind that produced it. */
  kind: 'shot' | 'choice' | 'undo' | 'stalemate' | 'warning';
  /** Player who shot or chose (stalemate: the breaker; warning: the warned player; undo: who took the undone step). */
  by: PlayerKey;
  /** Points gained by `by` on this step (gross). */
  points: number;
  /** Points lost by `by` on this step (positive number; 14-1 only). */
  penalty: number;
  /**
   * Points of `by`'s inning after this step (D-7): the run so far on a shot that continues it, the final run on
   * a shot that ends it (a foul does not subtract); 0 for a step that is not a shot.
   */
  run: number;
  /** Consecutive fouls of `by` standing after the step (2 = on two fouls; 0 after a legal shot or a third foul). */
  standingFouls: number;
  /** Rotation: balls scored on this step (ascending), each worth its number. */
  balls?: number[];
  /** Set when this step ended the turn. */
  turnEnd?: TurnEnd;
  /** 14-1 re-rack or Rotation new rack caused by this step. */
  rerack?: { racked: 14 | 15; reason: 'continuous' | 'three-foul' | 'rebreak' | 'stalemate' | 'new-rack' | 'illegal-break' };
  /** Kind of foul on this step, if any. */
  foul?: 'foul' | 'breaking-foul' | 'third-foul';
  /** Why the shot was a foul, most visible first (empty for a breaking foul that only missed the requirement). */
  fouls?: FoulReason[];
  /** Rotation `wrong-ball`: the ball the cue ball hit first. */
  firstContact?: number;
  /** The foul happened on an opening break (14-1 standard foul on the break, Rotation break foul). */
  onBreak?: true;
  /** Rotation: the foul happened on a push out. */
  onPushOut?: true;
  /**
   * Rotation: a legal opening break that pocketed nothing (R-4: at least four balls to a rail, none down): the
   * turn passes, worded "no ball", not a miss. Description only: the transition is the miss's.
   */
  dryBreak?: true;
  /** The shot was a called safety (14-1, Rotation call shot). */
  safety?: boolean;
  /** Object balls pocketed without scoring and put back on the table (14-1 S-5/S-11, Rotation R-6a). */
  spotted?: number;
  /** Rotation: the numbers of the balls put back (R-6a). */
  spottedBalls?: number[];
  /** Rotation: this shot clinched the rack at 61. */
  clinched?: true;
  /** Rotation single rack: 60–60 with all balls down, the last ball's pocketer gets +1 (R-3a, D-24; not in `points`). */
  tieBreak?: true;
  /** A choice step: what was chosen. */
  choice?: ChoiceMade;
  /** Rotation foul placement: where the cue ball and the lowest ball (number `ball`) go. */
  placement?: { cueBall: Placement['cueBall']; lowestBall: Placement['lowestBall']; ball: number | null };
  /** Undo: the outcome of the step taken back. */
  undone?: Outcome;
  /** Set when this shot opened an inning of `by`: that inning's number. */
  inning?: number;
  /** Rack number when the step was taken. */
  rack: number;
  /** What the step left pending (who shoots or decides next, ball in hand, the next breaker, the winner). */
  next: NextUp;
}

/** One row of the score sheet: one inning of one player (docs/rules.md §3.13; 14dot1-SG). */
export interface SheetRow {
  player: PlayerKey;
  /** The player's inning number (1-based). */
  inning: number;
  rack: number;
  /** Points legally scored in the inning (gross). */
  points: number;
  /** Points lost in the inning (fouls). */
  penalty: number;
  /** Sheet marker: '' (miss or still running), 'S', 'F', 'BF', 'TF', 'IB' (illegal break), 'PO' (push out), 'W' (won). */
  mark: '' | 'S' | 'F' | 'BF' | 'TF' | 'IB' | 'PO' | 'W';
  /** Running total after the inning. */
  total: number;
  /** Rotation: ball numbers scored in the inning, in order. */
  balls?: number[];
  /** True while the inning is still in progress. */
  open?: boolean;
}

/** Per-player statistics for the dashboard. */
export interface PlayerStats {
  innings: number;
  points: number;
  /** Points per inning (gross points / innings), 0 when no inning. */
  average: number;
  highRun: number;
  safeties: number;
  fouls: number;
  breakingFouls: number;
  threeFouls: number;
  /** Runs of each finished or running inning, in order (points). */
  runs: number[];
}

/** Rack summary: points each player took in the rack (14-1: balls; Rotation: ball values). */
export interface RackTotal {
  rack: number;
  points: Pair<number>;
  /** Rotation: ball numbers each player scored in the rack (empty for 14-1). */
  balls: Pair<number[]>;
}

/**
 * The rules' consistency check, relative to where recording began, as numbers the pages word. 14-1 INV-1:
 * change of the score sum (`scoreChange`) = balls legally scored − foul points (`scoreOk`); INV-2 (`rack`, when
 * the current rack began while recording): balls scored in it = 15 − balls on the table. Rotation INV-R1: the
 * change = 120 per rack finished (`racks`) + points taken off the current table (`fromTable`), + 1 after a
 * single-rack 60–60 tie-break. `ok`: every relation holds.
 */
export type ConsistencyCheck =
  | {
      discipline: '14-1';
      ok: boolean;
      scoreChange: number;
      scored: number;
      penalties: number;
      scoreOk: boolean;
      rack: { scored: number; onTable: number; ok: boolean } | null;
    }
  | { discipline: 'rotation'; ok: boolean; scoreChange: number; racks: number; fromTable: number; tieBreak: boolean };

/** The whole public state of a match at one version. */
export interface MatchState {
  discipline: Discipline;
  ruleset: Ruleset;
  /** Player names, A first. */
  names: Pair<string>;
  targets: Pair<number>;
  score: Pair<number>;
  /** Points still needed to reach the target (never below 0). */
  needed: Pair<number>;
  /** Who shoots next, or who must make the pending choice. */
  turn: PlayerKey;
  /** Points of the current inning of the player at the table. */
  run: number;
  highRun: Pair<number>;
  /** Consecutive fouls standing. */
  fouls: Pair<number>;
  /** True when the player is on two fouls (14-1: the next foul costs 16; S-14/S-15). */
  onTwoFouls: Pair<boolean>;
  innings: Pair<number>;
  rack: number;
  /** Object balls on the table (both disciplines). */
  ballsOnTable: number;
  /** Ball numbers on the table ascending: always for Rotation; for 14-1 when known (null after counts only). */
  onTable: number[] | null;
  awaiting: Awaiting;
  /** True when the next shot is an opening break (break requirements apply). */
  breakShot: boolean;
  ballInHand: BallInHand;
  /** 14-1: placement of the last re-rack in this rack, null before any. */
  rackPlacement: RackPlacement | null;
  winner: PlayerKey | null;
  /** Rotation: a push out is allowed on the next shot (after any pending choice is answered). */
  pushOutAvailable: boolean;
  /** Rotation: the lowest-numbered ball on the table (the ball to hit first), null when none. */
  lowestBall: number | null;
  /** Rotation: sum of the values of the balls on the table. 14-1: equals ballsOnTable. */
  pointsLeft: number;
  /** Rotation: points each player scored in the current rack. */
  rackPoints: Pair<number>;
  /** Rotation: the player whose rack points reached 61 (the rack is clinched). */
  rackClinchedBy: PlayerKey | null;
  /** 14-1: where the cue ball goes for the player who accepts a pending choice (scratch → 'kitchen'). */
  pendingBallInHand: BallInHand;
  /** 14-1 with `requireTwoFoulWarning`: the player on two fouls has been warned (S-15). */
  warned: Pair<boolean>;
  /** Rotation: facts of the pending foul placement, null unless `awaiting` is 'foul-placement'. */
  foulPlacement: FoulPlacementFacts | null;
  /** Number of effective steps (undo removes one). */
  steps: number;
  /** What the last effective step did; null at the start. */
  last: Outcome | null;
}
