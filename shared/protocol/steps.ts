/**
 * The step vocabulary: what a referee reports at the table. It is the vocabulary of the scoring case
 * bank (docs/case-format.md) and the wire vocabulary between scorer, server and engine: the
 * same JSON travels unchanged. Types and plain constants only (no zod), so the rules and the pages import
 * it freely; the server checks untrusted input with the schemas of server/protocol/step-schemas.ts (`parseStep`), whose
 * output is checked at compile time to be exactly these types.
 */
import type { PlayerKey } from './vocabulary';

/** Extra fouls a referee may call beside scratch / off table / no contact / no rail (14-1 §08, ROT §10, S-12). */
export const OTHER_FOULS = [
  'touched-ball',
  'double-hit',
  'feet-off-floor',
  'push-shot',
  'balls-moving',
  'bad-cue-ball-placement',
  'cue-on-table',
  'slow-play',
] as const;
export type OtherFoul = (typeof OTHER_FOULS)[number];

/**
 * D-32 time foul: the shot clock ran out before the stroke. A standard foul with no stroke, so a report that
 * carries it carries nothing else (`{"fouls": ["time"]}`); it is never part of a stroke's foul list, which is
 * why it is not an `OtherFoul` (the scorer's foul menus list those).
 */
export const TIME_FOUL = 'time';
/** Every word of a report's `fouls` list: the other fouls of a stroke, and the time foul (D-32). */
export const SHOT_FOULS = [...OTHER_FOULS, TIME_FOUL] as const;
/** A word of a report's `fouls` list (docs/case-format.md `fouls`). */
export type ShotFoul = (typeof SHOT_FOULS)[number];

/** The kinds of step, each the single key of its step object. */
export const STEP_KINDS = ['shot', 'choice', 'undo', 'stalemate', 'warning'] as const;
export type StepKind = (typeof STEP_KINDS)[number];

/** A called shot (ball 1–15, the pocket as the scorer names it, whether it was made) or a called safety. */
export type Call =
  | 'safety'
  | {
      ball?: number;
      /** The called pocket, as the scorer names it, 1–24 characters (informational: only whether the call was made scores). */
      pocket?: string;
      made?: boolean;
    };

/** 14-1 re-rack: where the cue ball and the break ball lie when the rack is set up again (14-1 §07, S-16–S-18). */
export interface RackArea {
  cueBall?: boolean;
  breakBall?: boolean;
  breakBallInKitchen?: boolean;
  headSpotTaken?: boolean;
}

/** One stroke as the referee reports it (docs/case-format.md `shot`). Ball numbers are 1–15. */
export interface Shot {
  call?: Call;
  /** The balls pocketed (numbers, at most 15), or only how many (0–15). */
  pocketed?: number[] | number;
  offTable?: number[];
  /** The ball the cue ball hit first; null: none. */
  firstContact?: number | null;
  rail?: boolean;
  /** The opening break: object balls driven to a cushion (0–15), and whether the cue ball reached one. */
  breakRails?: { objectBalls: number; cueBall?: boolean };
  cueBall?: 'scratch' | 'off-table';
  /** At most 8. */
  fouls?: ShotFoul[];
  pushOut?: boolean;
  cueBallInKitchen?: boolean;
  rackArea?: RackArea;
}

/** Rotation foul placement: where the incoming player puts the cue ball and the lowest ball. */
export interface Placement {
  cueBall: 'as-is' | 'kitchen' | 'anywhere';
  lowestBall: 'as-is' | 'center-spot' | 'foot-spot';
  /** Extension: the lowest ball lies behind the head string (then `kitchen` + `as-is` is forbidden, R-8). */
  lowestBallInKitchen?: boolean;
}

/** A decision by the player entitled to it (docs/case-format.md `choice`). */
export type Choice = 'accept' | 'rebreak' | 'rerack' | 'shoot' | 'pass' | Placement;

/** One recorded step: a shot, a choice, an undo, a stalemate or a two-foul warning. */
export type Step =
  | { shot: Shot }
  | { choice: Choice }
  | { undo: true }
  /** 14-1 S-20 stalemate: re-rack 15, scores kept, the lag winner opens. */
  | { stalemate: { breaker: PlayerKey } }
  /** 14-1 S-15 with `requireTwoFoulWarning`: the referee warns the player on two fouls. */
  | { warning: PlayerKey };
