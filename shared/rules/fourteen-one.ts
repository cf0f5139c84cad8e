/**
 * 14-1 continuous (straight pool): seed 14-1 §01–§12 (NBA ch.13, June 2026) with the WPA differences,
 * as specified in docs/rules.md §3 (S-1…S-21) and decisions D-1…D-16, D-25, D-30…D-33.
 * Every function is pure: (setup, core, step) → new core + outcome, or a thrown RulesError. Inside one
 * transition a private draft of the core is mutated (`draftOf`); the input core is never touched.
 */
import { RulesError } from '../protocol/errors';
import type { PlayerKey, StraightPoolSetup } from '../protocol/setup';
import type { RackPlacement } from '../protocol/state';
import { type Choice, type RackArea, type Step, TIME_FOUL } from '../protocol/steps';
import {
  ALL_BALLS,
  addPoints,
  type Core,
  draftOf,
  endTurn,
  idx,
  openInning,
  other,
  outcomeOf,
  reachedTarget,
  type StepContext,
  type Transition,
  withAt,
} from './core';
import { foulReasons, readShot, type ShotFacts, shotOf, withoutBalls } from './read-shot';
import { isThirdFoul, standardFoulCost } from './penalties';
import { CHOICE_WORDS } from './choice-words';
import { rerackContinuous } from './rerack';
import { checkOutcomeFacts, checkShot, checkStepVocabulary, checkVersion1Shot } from './shot-checks';
import type { InputChecks } from './version';

/**
 * D-31: after every 15-ball re-rack for an opening break (NBA three-foul "rerack", WPA mandatory three-foul
 * re-rack, "rebreak" after a breaking foul, stalemate) the breaker has the cue ball in hand behind the head
 * string. `rackPlacement` keeps it until the next re-rack.
 */
export const RERACKED_FOR_BREAK: Readonly<RackPlacement> = Object.freeze({ cueBall: 'kitchen', breakBall: 'racked', racked: 15 });

/**
 * Decide one 14-1 step (shot, choice, stalemate, warning). `checks` (shared/rules/version.ts `InputChecks`):
 * `all`, or `version-1` (a stored step of a version-1 log), which leaves out the D-30 input refusals of
 * ./shot-checks that version 1 did not have; the transition is the same.
 * @throws RulesError with a D-30 code when the rules cannot accept the step now.
 */
export function decideStraightPool(setup: StraightPoolSetup, c: Core, step: Step, checks: InputChecks = 'all'): Transition {
  if (c.winner) throw new RulesError('match-over', `the match is over: ${setup.players[idx(c.winner)]} has won`);
  if ('shot' in step) {
    if (c.awaiting) throw pendingError(setup, c);
    // The report as an object of one shape (`shotOf`): reports come in many shapes, so each read of one is slow.
    const shot = shotOf(step.shot);
    if (checks === 'all') checkShot(setup, c, shot);
    else if (checks === 'version-1') checkVersion1Shot(setup, c, shot);
    const facts = readShot(shot, c.table, c.count);
    const rackArea = shot.rackArea;
    const t = shoot(setup, c, facts, shot.breakRails, rackArea);
    if (checks === 'all' && rackArea) checkOutcomeFacts(setup, c, t.core, shot, facts.pocketedCount);
    return t;
  }
  if (checks === 'all') checkStepVocabulary(setup, step);
  if ('choice' in step) return choose(setup, c, step.choice);
  if ('stalemate' in step) return stalemate(setup, c, step.stalemate.breaker);
  if ('warning' in step) return warn(setup, c, step.warning);
  throw new RulesError('invalid-step', 'step: unknown step kind', 'step');
}

/** The error for a shot while a choice is pending (docs/rules.md §1.3). */
export function pendingError(setup: { players: [string, string] }, c: Core): RulesError {
  return new RulesError('choice-pending', `step.shot: ${setup.players[idx(c.turn)]} must first answer the pending ${c.awaiting}`, 'step.shot');
}

/** A standard foul by the 14-1 list (S-12; 14-1 §08): no contact, no cushion, scratch, ball off the table, other fouls. */
function isStandardFoul(f: ShotFacts): boolean {
  return f.fouls.length > 0 || f.cueBall !== null || f.offTable.length > 0 || f.firstContact === null || (f.pocketedCount === 0 && !f.rail);
}

/** D-32: a time foul (`fouls: ["time"]`): the shot clock ran out before the stroke, so nothing on the table moved. */
function isTimeFoul(f: ShotFacts): boolean {
  return f.fouls.includes(TIME_FOUL);
}

/** Opening-break requirement (S-8; 14-1 §05): called ball made, or cue ball and ≥ 2 object balls to a cushion. */
function breakRequirementMet(setup: StraightPoolSetup, f: ShotFacts, rails: { objectBalls: number; cueBall?: boolean } | undefined): boolean {
  if (f.call.kind === 'ball' && f.call.made) return true;
  const objectBalls = rails?.objectBalls ?? 2;
  const cueRail = (rails?.cueBall ?? true) || (setup.options.scratchCountsAsCueRailOnBreak && f.cueBall === 'scratch');
  return f.firstContact !== null && objectBalls >= 2 && cueRail;
}

function shoot(
  setup: StraightPoolSetup,
  c0: Core,
  f: ShotFacts,
  rails: { objectBalls: number; cueBall?: boolean } | undefined,
  rackArea: RackArea | undefined,
): Transition {
  const d = draftOf(c0);
  const p = d.turn;
  const o = other(p);
  const inning = openInning(d);
  const ctx: StepContext = { kind: 'shot', by: p, rack: c0.rack, inning, run: d.run };
  const cueInHand = f.cueBall !== null ? ('kitchen' as const) : null;
  const wasBreak = d.breakShot;
  d.breakShot = false;

  if (wasBreak && !breakRequirementMet(setup, f, rails)) {
    // S-9 breaking foul: −2 (a scratch on it is included), no foul count either way (D-2), opponent chooses.
    const pen = setup.options.breakingFoulPenalty;
    d.score = withAt(d.score, p, d.score[idx(p)] - pen);
    endTurn(d, o);
    d.ballInHand = null;
    d.pendingBallInHand = cueInHand;
    d.awaiting = 'break-foul-choice';
    return { core: d, outcome: outcomeOf(ctx, d, 0, pen, { foul: 'breaking-foul', turnEnd: 'breaking-foul', fouls: foulReasons(f, true) }) };
  }

  if (isStandardFoul(f)) return standardFoul(setup, d, ctx, f, wasBreak);

  // Legal shot (S-6): clears the shooter's foul count.
  if (d.fouls[idx(p)] !== 0) d.fouls = withAt(d.fouls, p, 0);
  if (d.warned[idx(p)]) d.warned = withAt(d.warned, p, false);
  d.ballInHand = null;
  if (f.call.kind !== 'ball' || !f.call.made) {
    // S-5 / S-11: safety or call not made — pocketed balls are spotted, turn passes, cue ball as it lies.
    const safety = f.call.kind === 'safety';
    endTurn(d, o);
    return { core: d, outcome: outcomeOf(ctx, d, 0, 0, { turnEnd: safety ? 'safety' : 'miss', safety, spotted: f.pocketedCount || undefined }) };
  }

  // S-4: called ball in the called pocket — every pocketed ball scores.
  const n = f.pocketedCount;
  addPoints(d, p, n);
  d.count -= n;
  d.table = f.pocketed ? withoutBalls(d.table, f.pocketed) : d.count === 0 ? [] : null;
  if (reachedTarget(setup, d, p)) {
    // §1.5, S-21, D-25: the match ends on the scoring shot; no re-rack.
    d.winner = p;
    return { core: d, outcome: outcomeOf(ctx, d, n, 0, { turnEnd: 'win' }) };
  }
  if (d.count <= 1) {
    const rr = rerackContinuous(d.count, rackArea ?? {});
    d.rack += 1;
    d.count = 15;
    d.table = ALL_BALLS;
    d.rackPlacement = rr.placement;
    d.ballInHand = rr.ballInHand;
    return { core: d, outcome: outcomeOf(ctx, d, n, 0, { rerack: { racked: rr.placement.racked, reason: 'continuous' } }) };
  }
  return { core: d, outcome: outcomeOf(ctx, d, n, 0) };
}

export { rerackContinuous } from './rerack';

/** S-10, S-13, S-14 on a draft: −1, balls spotted, foul count (NBA: not on an opening break), third foul −16. */
function standardFoul(setup: StraightPoolSetup, d: Core, ctx: StepContext, f: ShotFacts, wasBreak: boolean): Transition {
  const p = d.turn;
  const o = other(p);
  const opt = setup.options;
  // D-32b: a time foul (no stroke) leaves the cue ball where it was: in hand behind the head string when the
  // offender held it there, else where it lies. A stroke foul with a scratch or a cue ball off the table: in hand (S-12, D-33).
  const cueInHand = isTimeFoul(f) ? d.ballInHand : f.cueBall !== null ? ('kitchen' as const) : null;
  const counted = !(wasBreak && opt.openingBreakFoulsCount === 'none');
  const third = counted && isThirdFoul(opt, d.fouls[idx(p)], d.warned[idx(p)]);
  const pen = standardFoulCost(opt, third);
  d.score = withAt(d.score, p, d.score[idx(p)] - pen);
  const fouls = foulReasons(f, true);
  const onBreak = wasBreak || undefined;
  if (counted) {
    const n = d.fouls[idx(p)] + 1;
    if (third) {
      d.fouls = withAt(d.fouls, p, 0);
      d.warned = withAt(d.warned, p, false);
      if (opt.threeFoulResolution === 'mandatory-rerack') {
        // WPA 4.11: re-rack 15, the offender breaks under opening-break rules as a new inning.
        endTurn(d, p);
        rerackForBreak(d);
        return {
          core: d,
          outcome: outcomeOf(ctx, d, 0, pen, { foul: 'third-foul', turnEnd: 'third-foul', fouls, onBreak, rerack: { racked: 15, reason: 'three-foul' } }),
        };
      }
      // NBA 14-1 §09: the opponent chooses accept (play as it lies) or re-rack (offender breaks).
      endTurn(d, o);
      d.awaiting = 'three-foul-choice';
      d.ballInHand = null;
      d.pendingBallInHand = cueInHand;
      return { core: d, outcome: outcomeOf(ctx, d, 0, pen, { foul: 'third-foul', turnEnd: 'third-foul', fouls, onBreak }) };
    }
    d.fouls = withAt(d.fouls, p, Math.min(n, 2));
  }
  endTurn(d, o);
  d.ballInHand = cueInHand;
  return { core: d, outcome: outcomeOf(ctx, d, 0, pen, { foul: 'foul', turnEnd: 'foul', fouls, onBreak }) };
}

/** On a draft: re-rack 15 for an opening break by `d.turn` (S-14 re-rack, S-20 stalemate): rack + 1; D-31 placement. */
function rerackForBreak(d: Core): void {
  d.rack += 1;
  d.count = 15;
  d.table = ALL_BALLS;
  d.breakShot = true;
  d.ballInHand = 'kitchen';
  d.rackPlacement = RERACKED_FOR_BREAK;
  d.awaiting = null;
  d.pendingBallInHand = null;
}

/** Choices: after a breaking foul (S-9: accept / rebreak) and after a third foul under NBA (S-14, D-5: accept / rerack). */
function choose(setup: StraightPoolSetup, c: Core, choice: Choice): Transition {
  if (c.awaiting === null) throw new RulesError('no-choice-pending', 'step.choice: no decision is pending; record a shot', 'step.choice');
  const who = c.turn;
  const offender = other(who);
  const ctx: StepContext = { kind: 'choice', by: who, rack: c.rack, inning: undefined, run: 0 };
  const allowed: readonly string[] = CHOICE_WORDS[c.awaiting === 'break-foul-choice' ? 'break-foul-choice' : 'three-foul-choice'];
  if (typeof choice !== 'string' || !allowed.includes(choice)) {
    throw new RulesError(
      'wrong-choice',
      `step.choice: after a ${c.awaiting === 'break-foul-choice' ? 'breaking foul' : 'third foul'} the choice is ${allowed.map((a) => `"${a}"`).join(' or ')}`,
      'step.choice',
    );
  }
  const d = draftOf(c);
  d.awaiting = null;
  if (choice === 'accept') {
    // Opponent plays the table as it lies; cue ball in hand behind the head string after a scratch.
    d.breakShot = false;
    d.ballInHand = c.pendingBallInHand;
    d.pendingBallInHand = null;
    return { core: d, outcome: outcomeOf(ctx, d, 0, 0, { choice: 'accept' }) };
  }
  d.turn = offender;
  if (choice === 'rebreak') {
    // S-9: all 15 re-racked, the same breaker breaks again; rack number unchanged (D-11); D-31 placement.
    d.breakShot = true;
    d.rackPlacement = RERACKED_FOR_BREAK;
    d.ballInHand = 'kitchen';
    d.pendingBallInHand = null;
    d.count = 15;
    d.table = ALL_BALLS;
    return { core: d, outcome: outcomeOf(ctx, d, 0, 0, { choice: 'rebreak', rerack: { racked: 15, reason: 'rebreak' } }) };
  }
  // D-5 rerack: rack + 1, 15 balls, the offender opens under S-8.
  rerackForBreak(d);
  return { core: d, outcome: outcomeOf(ctx, d, 0, 0, { choice: 'rerack', rerack: { racked: 15, reason: 'three-foul' } }) };
}

/** S-20 stalemate (WPA 4.12): scores, fouls and innings kept; 15 re-racked, rack + 1; the lag winner opens. */
function stalemate(setup: StraightPoolSetup, c: Core, breaker: PlayerKey): Transition {
  if (c.awaiting)
    throw new RulesError('choice-pending', `step.stalemate: ${setup.players[idx(c.turn)]} must first answer the pending ${c.awaiting}`, 'step.stalemate');
  const d = draftOf(c);
  endTurn(d, breaker);
  rerackForBreak(d);
  return {
    core: d,
    outcome: outcomeOf({ kind: 'stalemate', by: breaker, rack: c.rack, inning: undefined, run: 0 }, d, 0, 0, { rerack: { racked: 15, reason: 'stalemate' } }),
  };
}

/** S-15 (WPA 6.14): the referee warns a player on two fouls; only meaningful with `requireTwoFoulWarning`. */
function warn(setup: StraightPoolSetup, c: Core, p: PlayerKey): Transition {
  if (!setup.options.requireTwoFoulWarning) {
    throw new RulesError('invalid-step', 'step.warning: two-foul warnings are assumed given (set option requireTwoFoulWarning to record them)', 'step.warning');
  }
  if (c.fouls[idx(p)] !== 2) throw new RulesError('wrong-choice', `step.warning: ${setup.players[idx(p)]} is not on two fouls`, 'step.warning');
  const d = draftOf(c);
  d.warned = withAt(d.warned, p, true);
  return { core: d, outcome: outcomeOf({ kind: 'warning', by: p, rack: c.rack, inning: undefined, run: 0 }, d, 0, 0) };
}
