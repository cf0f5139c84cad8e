/**
 * The questions the console asks before it sends a scoring shot, answered by the rules engine itself rather
 * than by a copy of its rules: the drafted shot is played forward without the answer (./preview
 * `projectedOutcome`, the same `projectSteps` the server's rules decide with) and the outcome read.
 * - 14-1: the rack-area question (S-16 one ball left, S-18 none left), asked when the shot re-racks
 *   continuously and does not win the match (S-21: a target reached ends it, no re-rack).
 * - Rotation: "is the cue ball behind the head string?", asked when the shot clears the rack and the
 *   match goes on (not a win, and never in the single-rack-61 format, R-3a: the rack is the match).
 * - 14-1: whether the referee's two-foul warning (S-15) can be recorded for a player.
 * A shot the engine refuses asks nothing: it is sent as drafted and the refusal comes back with its reason.
 */
import type { MatchSetup, PlayerKey } from '../../../shared/protocol/setup';
import type { MatchState, Outcome } from '../../../shared/protocol/state';
import type { Shot } from '../../../shared/protocol/steps';
import { projectedOutcome } from './preview';

/** The engine's outcome of `shot` from `s`, or null when it refuses the shot. */
function outcomeOf(setup: MatchSetup, s: MatchState, shot: Shot): Outcome | null {
  const r = projectedOutcome(setup, s, { shot });
  return 'outcome' in r ? r.outcome : null;
}

/** The outcome re-racks for the reason given and the match goes on. */
const rerackNoWin = (o: Outcome | null, reason: 'continuous' | 'new-rack'): o is Outcome & { rerack: NonNullable<Outcome['rerack']> } =>
  !!o && o.rerack?.reason === reason && o.turnEnd !== 'win';

/**
 * 14-1: the balls a scoring shot leaves when the engine re-racks on it (S-16: 1, the break ball stays; S-18:
 * 0, all 15 racked), so the console asks the rack-area questions; null when it does not re-rack (more balls
 * left, the shot wins the match, it is not a scoring shot, or the engine refuses it). `shot` is the shot as
 * drafted, without `rackArea` (whatever it carries there is ignored).
 */
export function rackAreaQuestion(setup: MatchSetup, s: MatchState, shot: Shot): 0 | 1 | null {
  if (setup.discipline !== '14-1') return null;
  const { rackArea: _, ...drafted } = shot;
  const o = outcomeOf(setup, s, drafted);
  if (!rerackNoWin(o, 'continuous')) return null;
  // S-4: one point per ball pocketed, so the balls left are those on the table less the points scored.
  const left = s.ballsOnTable - o.points;
  return left === 1 || left === 0 ? left : null;
}

/**
 * Rotation: true when the engine ends the rack on this shot and the match goes on, so the console asks
 * whether the cue ball stopped behind the head string (the answer decides who breaks). False for a shot that
 * leaves balls, wins the match (single-rack-61 included, R-3a), is not a made legal shot, or is refused.
 * `shot` is the shot as drafted, without `cueBallInKitchen` (whatever it carries there is ignored).
 */
export function kitchenQuestion(setup: MatchSetup, s: MatchState, shot: Shot): boolean {
  if (setup.discipline !== 'rotation') return false;
  const { cueBallInKitchen: _, ...drafted } = shot;
  return rerackNoWin(outcomeOf(setup, s, drafted), 'new-rack');
}

/**
 * 14-1 (S-15, D-6, option `requireTwoFoulWarning`): the warning button for `p` is offered when the engine takes
 * the warning now (the option is on and `p` stands on two fouls) and `p` has not been warned yet (a second
 * warning would change nothing). False in Rotation, which has no warning step.
 */
export function warningOffered(setup: MatchSetup, s: MatchState, p: PlayerKey): boolean {
  if (s.warned[p === 'A' ? 0 : 1]) return false;
  return 'outcome' in projectedOutcome(setup, s, { warning: p });
}
