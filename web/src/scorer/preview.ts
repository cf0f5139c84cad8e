/**
 * "What will this button do?" computed by the rules engine itself: the step is played forward from the state
 * the console shows (`projectSteps`, zod-free) and its outcome turned into a verdict the button can print
 * before the tap (scores +n, legal break, foul −1, breaking foul −2, third foul −16).
 */
import { projectSteps } from '../../../shared/engine';
import type { MatchSetup } from '../../../shared/protocol/setup';
import type { MatchState, Outcome } from '../../../shared/protocol/state';
import type { Step } from '../../../shared/protocol/steps';

/** A step's consequence as a button names it. `points` and `penalty` are for the player at the table. */
export type Verdict =
  | { kind: 'scores'; points: number }
  | { kind: 'legal' }
  | { kind: 'foul'; penalty: number }
  | { kind: 'breaking-foul'; penalty: number }
  | { kind: 'third-foul'; penalty: number }
  | { kind: 'refused'; message: string };

/**
 * What the engine makes of `step` played from `state`: its outcome, or the refusal (`RulesError` message).
 * No side effects; nothing is sent. Every question the console asks about a step goes through here.
 */
export function projectedOutcome(setup: MatchSetup, state: MatchState, step: Step): { outcome: Outcome | null } | { refused: string } {
  const r = projectSteps(setup, state, [step]);
  if (r.error) return { refused: r.error.message };
  return { outcome: r.state.last };
}

/** The engine's verdict on `step` from `state` (no side effects; nothing is sent). */
export function previewStep(setup: MatchSetup, state: MatchState, step: Step): Verdict {
  const r = projectedOutcome(setup, state, step);
  if ('refused' in r) return { kind: 'refused', message: r.refused };
  const o = r.outcome;
  if (!o) return { kind: 'legal' };
  if (o.foul === 'breaking-foul') return { kind: 'breaking-foul', penalty: o.penalty };
  if (o.foul === 'third-foul') return { kind: 'third-foul', penalty: o.penalty };
  if (o.foul === 'foul') return { kind: 'foul', penalty: o.penalty };
  if (o.points > 0) return { kind: 'scores', points: o.points };
  return { kind: 'legal' };
}

/** True for the verdicts a button should colour as a foul. */
export const isFoulVerdict = (v: Verdict): boolean => v.kind === 'foul' || v.kind === 'breaking-foul' || v.kind === 'third-foul';
