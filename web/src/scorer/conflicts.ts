/**
 * Facts entered on the console that contradict the step a control would send (D-30), found by the rules'
 * own CONTRADICTIONS (shared/rules/shot-checks.ts), never a copy of them. The console's builders (./straight, ./rotation) never put
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
import type { Shot } from '../../../shared/protocol/steps';
import { CONTRADICTIONS, type Contradiction, type ShotKind } from '../../../shared/rules/shot-checks';

/** Why a control is off: the facts entered contradict its step. */
export type Conflict = 'rail' | 'no-hit';

/** The rules' contradictions the console can meet, each with the conflict it shows, in the order the hint names them. */
const SHOWN: readonly [Conflict, Contradiction][] = (
  [
    ['rail', 'no-rail-but-pocketed'],
    ['no-hit', 'no-contact-balls-moved'],
  ] as const
).map(([conflict, id]) => {
  const rule = CONTRADICTIONS.find((c) => c.id === id);
  if (!rule) throw new Error(`shared/rules/shot-checks.ts has no contradiction ${id}`);
  return [conflict, rule];
});

/**
 * The conflict in a shot the console built, or null when the rules can take it: the rules' own check
 * (`CONTRADICTIONS`), so what is enabled is what the rules accept. Pure; the panels call it on the exact step a
 * control would send, as a shot of `kind` (default an ordinary shot).
 */
export function shotConflict(shot: Shot, kind: ShotKind = 'shot'): Conflict | null {
  for (const [conflict, rule] of SHOWN) if (rule.find(shot, kind)) return conflict;
  return null;
}

/** Each conflict once, in a fixed order (for the hint under the controls). */
export function distinctConflicts(list: readonly (Conflict | null)[]): Conflict[] {
  return SHOWN.map(([c]) => c).filter((c) => list.includes(c));
}
