/**
 * 14-1 continuous entry logic: turns the scorer's taps into `shot` steps (docs/case-format.md vocabulary), the
 * rack-area answers and their follow-ups, and the placement the rules require after a re-rack (S-16–S-18,
 * 14-1 §07). Whether a shot re-racks at all is the engine's answer (./questions `rackAreaQuestion`). Pure
 * functions over the public `MatchState`.
 */
import { RACK_BALLS } from '../../../shared/protocol/limits';
import type { MatchState, RackPlacement } from '../../../shared/protocol/state';
import { rerackContinuous } from '../../../shared/rules/rerack';
import type { OtherFoul, RackArea, Shot } from '../../../shared/protocol/steps';
import { shotConflict, type Conflict } from './conflicts';

/** The fouls the 14-1 console offers as one-tap buttons (S-12). */
export type StraightFoul = 'scratch' | 'no-rail' | 'no-contact' | 'off-table' | OtherFoul;
export const STRAIGHT_FOULS: readonly StraightFoul[] = ['scratch', 'no-rail', 'no-contact', 'off-table', 'touched-ball', 'double-hit', 'feet-off-floor'];

/** What the shot panel shows now. */
export type StraightMode = 'over' | 'choice' | 'break' | 'shot';

/** Which panel a 14-1 state calls for: a pending choice blocks shot entry. */
export function straightMode(s: MatchState): StraightMode {
  if (s.winner) return 'over';
  if (s.awaiting) return 'choice';
  return s.breakShot ? 'break' : 'shot';
}

/**
 * Called ball made, with `extra` further balls (0–14), or the listed ball numbers when the scorer named them
 * (the first named is the called ball). Scores 1 point per ball (S-4).
 */
export function madeShot(count: number, numbers?: readonly number[]): Shot {
  if (numbers && numbers.length > 0) return { call: { ball: numbers[0], made: true }, pocketed: [...numbers] };
  return { call: { made: true }, pocketed: Math.max(1, Math.min(RACK_BALLS, Math.round(count))) };
}

/** Balls the scorer picked as dropped on a shot that does not score (they are spotted, S-5 / S-13). */
const withDropped = (shot: Shot, dropped?: readonly number[]): Shot => (dropped && dropped.length > 0 ? { ...shot, pocketed: [...dropped] } : shot);

/** Called ball missed (or dropped in another pocket): no score, turn passes; `dropped` balls are spotted (S-5). */
export const missShot = (dropped?: readonly number[]): Shot => withDropped({ call: { made: false } }, dropped);

/** Called safety: no score, turn passes, foul count cleared; `dropped` balls are spotted (S-5, S-6; 14-1 §04). */
export const safetyShot = (dropped?: readonly number[]): Shot => withDropped({ call: 'safety' }, dropped);

/**
 * A standard foul (S-12). `offTableBall` is the ball driven off the table; 14-1 scores by count, so when the
 * scorer did not name it any ball still on the table stands for it.
 */
export function foulShot(foul: StraightFoul, s: Pick<MatchState, 'onTable'>, offTableBall?: number, dropped?: readonly number[]): Shot {
  const shot: Shot = withDropped(
    { call: { made: false } },
    dropped?.filter((b) => b !== offTableBall),
  );
  switch (foul) {
    case 'scratch':
      shot.cueBall = 'scratch';
      break;
    case 'no-rail':
      shot.rail = false;
      break;
    case 'no-contact':
      shot.firstContact = null;
      break;
    case 'off-table':
      shot.offTable = [offTableBall ?? s.onTable?.[s.onTable.length - 1] ?? RACK_BALLS];
      break;
    default:
      shot.fouls = [foul];
  }
  return shot;
}

/**
 * The foul as the menu records it with the balls the scorer named in the picker (`picked`, in tap order):
 * for "ball off the table" the first named ball is the one that left the table and any others dropped;
 * for every other foul the named balls dropped (they are spotted, S-13).
 */
export function menuFoulShot(foul: StraightFoul, s: Pick<MatchState, 'onTable'>, picked: readonly number[] = []): Shot {
  return foul === 'off-table' ? foulShot(foul, s, picked[0], picked.slice(1)) : foulShot(foul, s, undefined, picked);
}

/**
 * Why the foul menu's `foul` cannot be recorded with the balls named as dropped (see ./conflicts): "no rail"
 * and "no contact" say no ball can have dropped. Null when it can.
 */
export function straightFoulConflict(foul: StraightFoul, s: Pick<MatchState, 'onTable'>, picked: readonly number[] = []): Conflict | null {
  return shotConflict(menuFoulShot(foul, s, picked));
}

/**
 * Tap a ball number in the picker: on when off, off when on. A ball not on the table (when the table's
 * numbers are known), or one more than the table holds (when only the count is known), is not taken, so a
 * step never reports more balls gone than are on the table.
 */
export function togglePicked(picked: readonly number[], ball: number, s: Pick<MatchState, 'onTable' | 'ballsOnTable'>): number[] {
  if (picked.includes(ball)) return picked.filter((x) => x !== ball);
  if (s.onTable ? !s.onTable.includes(ball) : picked.length >= s.ballsOnTable) return [...picked];
  return [...picked, ball];
}

/** Fouls the opening-break panel offers as toggles (S-10: −1 when the break requirement was met, S-9 otherwise). */
export type BreakFoul = 'scratch' | Extract<OtherFoul, 'touched-ball' | 'double-hit' | 'feet-off-floor'>;
export const BREAK_FOULS: readonly BreakFoul[] = ['scratch', 'touched-ball', 'double-hit', 'feet-off-floor'];

/** The opening-break questions (S-8): what decides legality, plus a foul committed on the break. */
export interface BreakAnswers {
  /** The called ball went into the called pocket (meets the break requirement by itself). */
  calledMade: boolean;
  /** Balls pocketed on a made break (the called ball + extras). */
  pocketed: number;
  /** The cue ball reached a cushion (a scratch also counts by default, S-8 / D-3). */
  cueBall: 'rail' | 'no-rail';
  /** Object balls driven to a cushion: only "2 or more" matters, so 0, 1 or 2. */
  objectBalls: 0 | 1 | 2;
  /** Fouls on the break: a scratch, or touched ball / double hit / feet off the floor. */
  fouls: readonly BreakFoul[];
}

export const DEFAULT_BREAK: BreakAnswers = { calledMade: false, pocketed: 1, cueBall: 'rail', objectBalls: 2, fouls: [] };

/**
 * Build the opening-break shot from the answers: a called ball made (`pocketed` balls), or a break without
 * a called ball with the cushion facts; the toggled fouls ride along (`cueBall: 'scratch'`, `fouls: [...]`).
 * What the rules make of it (score, −1 foul, −2 breaking foul) is the engine's call: see ./preview.
 */
export function breakShot(a: BreakAnswers): Shot {
  const shot: Shot = a.calledMade
    ? { call: { made: true }, pocketed: Math.max(1, Math.min(RACK_BALLS, a.pocketed)) }
    : { call: 'safety', breakRails: { objectBalls: a.objectBalls, cueBall: a.cueBall === 'rail' } };
  if (a.fouls.includes('scratch')) shot.cueBall = 'scratch';
  const others = a.fouls.filter((f): f is Exclude<BreakFoul, 'scratch'> => f !== 'scratch');
  if (others.length > 0) shot.fouls = others;
  return shot;
}

/** Toggle a foul in the break answers (kept in the BREAK_FOULS order). */
export function toggleBreakFoul(a: BreakAnswers, f: BreakFoul): BreakAnswers {
  const on = a.fouls.includes(f);
  return { ...a, fouls: BREAK_FOULS.filter((x) => (x === f ? !on : a.fouls.includes(x))) };
}

/**
 * How many balls "made" records: the picked ball numbers when the scorer named any (one source of truth:
 * the +/− counter is then locked to that number), else the counter.
 */
export function madeCount(count: number, numbersOpen: boolean, picked: readonly number[]): { n: number; fromNumbers: boolean } {
  if (numbersOpen && picked.length > 0) return { n: picked.length, fromNumbers: true };
  return { n: Math.max(1, Math.round(count)), fromNumbers: false };
}

/** Rack-area answers; "neither" is `{cueBall: false, breakBall: false}`. */
export type RackAreaAnswers = Required<RackArea>;
export const NEITHER: RackAreaAnswers = { cueBall: false, breakBall: false, breakBallInKitchen: false, headSpotTaken: false };

/**
 * The first rack-area question's answers, as the panel offers them (S-16–S-18): with one ball left, what
 * lies in the rack area (neither records at once); with none left, whether the cue ball does. Follow-ups
 * come from `rackAreaFollowUp`.
 */
export const RACK_AREA_ANSWERS = {
  1: { neither: NEITHER, cue: { cueBall: true, breakBall: false }, break: { cueBall: false, breakBall: true }, both: { cueBall: true, breakBall: true } },
  0: { no: NEITHER, yes: { cueBall: true } },
} as const satisfies Record<0 | 1, Record<string, RackArea>>;

/** Which follow-up question the rack-area answers still need (S-17 (a), (b)), or null when complete. */
export function rackAreaFollowUp(left: 0 | 1, a: RackArea): 'break-ball-in-kitchen' | 'head-spot-taken' | null {
  if (left === 0) return null;
  if (a.cueBall && !a.breakBall) {
    if (a.breakBallInKitchen === undefined) return 'break-ball-in-kitchen';
    if (a.breakBallInKitchen && a.headSpotTaken === undefined) return 'head-spot-taken';
  }
  if (a.breakBall && !a.cueBall && a.headSpotTaken === undefined) return 'head-spot-taken';
  return null;
}

/** The rack-area object sent with the shot: only the facts the rule uses, false when not asked. */
export function rackAreaStep(left: 0 | 1, a: RackArea): RackArea {
  if (left === 0) return { cueBall: !!a.cueBall };
  return {
    cueBall: !!a.cueBall,
    breakBall: !!a.breakBall,
    breakBallInKitchen: !!a.breakBallInKitchen,
    headSpotTaken: !!a.headSpotTaken,
  };
}

/**
 * The placement the rules require after the re-rack (S-17 table, S-18): the engine's own
 * (`rerackContinuous`, shared/rules/rerack.ts). `left` = balls left by the scoring shot (1: break ball
 * stays, 0: 15-ball rack).
 */
export function requiredPlacement(left: 0 | 1, a: RackArea): RackPlacement {
  return rerackContinuous(left, a).placement;
}
