/**
 * Facts entered on the console that contradict the step a control would send (D-30, the rules'
 * CONTRADICTIONS in shared/rules/shot-checks.ts). The console's builders (./straight, ./rotation) never put
 * the other contradictions into a step (a ball listed twice, a made call without its ball, rack-area facts
 * the outcome does not allow): tests/scorer/console-legal.test.ts drives them through every input the
 * panels offer. The two left are the ones the scorer can tap together, and the panels then disable the
 * control and say why:
 * - `rail`: "no rail" with balls marked pocketed (a pocketed ball meets the rail rule, S-12 / R-7;
 *   rules id `no-rail-but-pocketed`);
 * - `no-hit`: no object ball hit ("no contact", or Rotation's first hit "none") yet balls marked pocketed
 *   or a ball off the table (rules id `no-contact-balls-moved`): only a foul that moves balls without the
 *   cue ball (touched ball) makes that possible.
 */
import type { Shot, ShotFoul } from '../../../shared/protocol/steps';

/** Why a control is off: the facts entered contradict its step. */
export type Conflict = 'rail' | 'no-hit';

/** Fouls that move object balls without the cue ball hitting one (the rules' MOVES_BALLS). */
const MOVES_BALLS: readonly ShotFoul[] = ['touched-ball', 'balls-moving', 'cue-on-table'];

/** Whether the shot reports object balls pocketed (a list or a count). */
function dropsBalls(shot: Shot): boolean {
  return Array.isArray(shot.pocketed) ? shot.pocketed.length > 0 : (shot.pocketed ?? 0) > 0;
}

/**
 * The conflict in a shot the console built, or null when the rules can take it. Pure; the panels call it
 * on the exact step a control would send, so what is enabled is what the rules accept.
 */
export function shotConflict(shot: Shot): Conflict | null {
  if (shot.rail === false && dropsBalls(shot)) return 'rail';
  if (shot.firstContact === null && (dropsBalls(shot) || (shot.offTable?.length ?? 0) > 0)) {
    if (!(shot.fouls ?? []).some((f) => MOVES_BALLS.includes(f))) return 'no-hit';
  }
  return null;
}

/** Each conflict once, in a fixed order (for the hint under the controls). */
export function distinctConflicts(list: readonly (Conflict | null)[]): Conflict[] {
  return (['rail', 'no-hit'] as const).filter((c) => list.includes(c));
}
