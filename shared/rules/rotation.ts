/**
 * Rotation: seed ROT §01–§13 (NBA ch.11, June 2026), as specified in docs/rules.md §4 (R-1…R-13) and
 * decisions D-17…D-29. Balls score their face value; the lowest ball must be hit first.
 * Every function is pure: (setup, core, step) → new core + outcome, or a thrown RulesError.
 */
import { RulesError } from '../protocol/errors';
import type { PlayerKey, RotationSetup } from '../protocol/setup';
import type { Choice, Step } from '../protocol/steps';
import {
  ALL_BALLS,
  addPoints,
  type Core,
  draftOf,
  endTurn,
  idx,
  openInning,
  other,
  type OutcomeExtras,
  outcomeOf,
  reachedTarget,
  type StepContext,
  type Transition,
  withAt,
} from './core';
import { CHOICE_WORDS } from './choice-words';
import { pendingError } from './fourteen-one';
import { placementRefusal } from './placement';
import { rackWinner } from './rack-won';
import { foulReasons, readShot, type ShotFacts, shotOf, withoutBalls } from './read-shot';
import { checkOutcomeFacts, checkShot, checkStepVocabulary, checkVersion1Shot } from './shot-checks';
import type { InputChecks } from './version';

export { legalPlacements, placementRefusal } from './placement';

/**
 * Decide one Rotation step (shot or choice). `checks` (shared/rules/version.ts `InputChecks`): `all`, or
 * `version-1` (a stored step of a version-1 log), which leaves out the D-30 input refusals of ./shot-checks that
 * version 1 did not have; the transition is the same.
 * @throws RulesError with a D-30 code when the rules cannot accept the step now.
 */
export function decideRotation(setup: RotationSetup, c: Core, step: Step, checks: InputChecks = 'all'): Transition {
  if (c.winner) throw new RulesError('match-over', `the match is over: ${setup.players[idx(c.winner)]} has won`);
  if ('shot' in step) {
    if (c.awaiting) throw pendingError(setup, c);
    // The report as an object of one shape (`shotOf`): reports come in many shapes, so each read of one is slow.
    const shot = shotOf(step.shot);
    if (checks === 'all') checkShot(setup, c, shot);
    else if (checks === 'version-1') checkVersion1Shot(setup, c, shot);
    const f = readShot(shot, c.table, c.count);
    const cueBallInKitchen = shot.cueBallInKitchen;
    const t = shoot(setup, c, f, shot.breakRails?.objectBalls ?? 4, cueBallInKitchen ?? false);
    if (checks === 'all' && cueBallInKitchen !== undefined) checkOutcomeFacts(setup, c, t.core, shot, f.pocketedCount);
    return t;
  }
  if (checks === 'all') checkStepVocabulary(setup, step);
  if ('choice' in step) return choose(setup, c, step.choice);
  throw new RulesError('invalid-step', 'step: unknown step kind', 'step');
}

const lowest = (table: readonly number[]): number | undefined => table[0];

/** A new array of `balls` in ascending order (an insertion sort: a shot pockets a few balls, and no closure is made). */
function ascending(balls: readonly number[]): number[] {
  const out: number[] = [];
  for (let i = 0; i < balls.length; i++) {
    const b = balls[i]!;
    let j = out.length;
    out.push(b);
    while (j > 0 && out[j - 1]! > b) {
      out[j] = out[j - 1]!;
      j--;
    }
    out[j] = b;
  }
  return out;
}
function sum(balls: readonly number[]): number {
  let t = 0;
  for (let i = 0; i < balls.length; i++) t += balls[i]!;
  return t;
}

function shoot(setup: RotationSetup, c0: Core, f: ShotFacts, breakRails: number, cueBallInKitchen: boolean): Transition {
  const opt = setup.options;
  const p = c0.turn;
  const o = other(p);
  const table = c0.table ?? ALL_BALLS;
  const low = lowest(table);
  const pocketed = f.pocketed ?? [];
  const isBreak = c0.breakShot;
  // R-10: whether a push out is allowed now was checked with the report (checkShot).
  const d = draftOf(c0);
  const inning = openInning(d);
  const ctx: StepContext = { kind: 'shot', by: p, rack: c0.rack, inning, run: d.run };
  const lowestLost = low !== undefined && (pocketed.includes(low) || f.offTable.includes(low));
  const cueLost = f.cueBall !== null;

  if (f.pushOut) {
    // R-10: relaxed requirements; only scratch, double hit and touched ball are fouls; pocketed balls are respotted.
    d.pushOutAvailable = false;
    if (cueLost || f.fouls.includes('double-hit') || f.fouls.includes('touched-ball')) {
      return foulHandling(setup, d, ctx, cueLost, lowestLost, { fouls: foulReasons(f, false), onPushOut: true });
    }
    if (d.fouls[idx(p)] !== 0) d.fouls = withAt(d.fouls, p, 0);
    endTurn(d, o);
    d.awaiting = 'push-out-choice';
    d.ballInHand = null;
    return { core: d, outcome: outcomeOf(ctx, d, 0, 0, { turnEnd: 'push-out' }) };
  }

  const contact = f.firstContact === undefined ? low : f.firstContact;
  const foul = cueLost || f.offTable.length > 0 || f.fouls.length > 0 || contact !== low || (!isBreak && pocketed.length === 0 && !f.rail);
  // R-10: the push out is available on the one shot right after the break (D-18: also after a break foul).
  if (isBreak) {
    d.breakShot = false;
    d.pushOutAvailable = opt.pushOut;
  } else d.pushOutAvailable = false;
  if (foul) {
    const wrongBall = contact !== low && contact !== null ? contact : undefined;
    return foulHandling(setup, d, ctx, cueLost, lowestLost, {
      fouls: foulReasons(f, !isBreak, wrongBall),
      firstContact: wrongBall,
      onBreak: isBreak || undefined,
    });
  }
  if (isBreak && pocketed.length === 0 && breakRails < 4) {
    // R-4b / D-17: illegal break, not a foul — the opponent accepts or re-racks and breaks.
    if (opt.illegalBreakPolicy === 'foul') return foulHandling(setup, d, ctx, cueLost, lowestLost, { fouls: ['illegal-break'] });
    endTurn(d, o);
    d.awaiting = 'illegal-break-choice';
    d.ballInHand = null;
    return { core: d, outcome: outcomeOf(ctx, d, 0, 0, { turnEnd: 'illegal-break' }) };
  }
  // Legal shot (R-9): clears the shooter's foul count.
  if (d.fouls[idx(p)] !== 0) d.fouls = withAt(d.fouls, p, 0);
  d.ballInHand = null;
  const called = f.call.kind === 'ball' && f.call.made;
  const safety = f.call.kind === 'safety';
  if ((opt.callShot && !isBreak && !called) || pocketed.length === 0) {
    // R-6a / D-19: safety, no call or call not made — no points, balls respotted, not a foul. Or nothing dropped.
    endTurn(d, o);
    const spottedBalls = pocketed.length ? ascending(pocketed) : undefined;
    const dryBreak = isBreak && pocketed.length === 0 ? (true as const) : undefined;
    return { core: d, outcome: outcomeOf(ctx, d, 0, 0, { turnEnd: safety ? 'safety' : 'miss', safety, spotted: pocketed.length, spottedBalls, dryBreak }) };
  }
  return score(setup, c0, d, ctx, pocketed, cueBallInKitchen);
}

/** On a draft: R-6 every legally pocketed ball scores its number; R-11 end of rack; R-3a 61; §1.5 target. */
function score(setup: RotationSetup, c0: Core, d: Core, ctx: StepContext, pocketed: number[], cueBallInKitchen: boolean): Transition {
  const p = ctx.by;
  const o = other(p);
  const pts = sum(pocketed);
  const balls = pocketed.length > 1 ? ascending(pocketed) : pocketed;
  addPoints(d, p, pts);
  const table = withoutBalls(d.table ?? ALL_BALLS, pocketed) ?? [];
  d.table = table;
  d.count = table.length;
  d.rackPoints = withAt(d.rackPoints, p, d.rackPoints[idx(p)] + pts);
  d.rackClinchedBy ??= rackWinner(d.rackPoints); // R-13: only p's rack points moved, so a new winner is p
  if (reachedTarget(setup, d, p)) {
    d.winner = p;
    return { core: d, outcome: outcomeOf(ctx, d, pts, 0, { balls, turnEnd: 'win', clinched: clinched(c0, d, p) }) };
  }
  if (table.length > 0) {
    return { core: d, outcome: outcomeOf(ctx, d, pts, 0, { balls, clinched: clinched(c0, d, p) }) };
  }
  if (setup.options.format === 'single-rack-61') {
    // R-3a / D-24: all balls down without a 61 — higher rack wins; 60–60: the last ball's pocketer +1.
    const [a, b] = d.rackPoints;
    const winner: PlayerKey = a === b ? p : a > b ? 'A' : 'B';
    if (a === b) d.score = withAt(d.score, p, d.score[idx(p)] + 1);
    d.winner = winner;
    return { core: d, outcome: outcomeOf(ctx, d, pts, 0, { balls, turnEnd: 'win', clinched: clinched(c0, d, p), tieBreak: a === b || undefined }) };
  }
  // R-11: new rack; foul counts reset (D-22); the break stays with the shooter only if the cue ball stopped in the kitchen.
  d.rack += 1;
  d.table = ALL_BALLS;
  d.count = 15;
  d.breakShot = true;
  d.pushOutAvailable = false;
  d.rackPoints = [0, 0];
  d.rackClinchedBy = null;
  if (setup.options.foulCountResetsEachRack) d.fouls = [0, 0];
  const rerack = { racked: 15 as const, reason: 'new-rack' as const };
  if (cueBallInKitchen) {
    d.ballInHand = null;
    return { core: d, outcome: outcomeOf(ctx, d, pts, 0, { balls, rerack, clinched: clinched(c0, d, p) }) };
  }
  endTurn(d, o);
  d.ballInHand = 'kitchen';
  return { core: d, outcome: outcomeOf(ctx, d, pts, 0, { balls, rerack, turnEnd: 'lost-break', clinched: clinched(c0, d, p) }) };
}

/** R-13: this shot took `p`'s rack points to 61 (the clinch happened now, not earlier in the rack). */
function clinched(c0: Core, d: Core, p: PlayerKey): true | undefined {
  return c0.rackClinchedBy === null && d.rackClinchedBy === p ? true : undefined;
}

/** On a draft: R-8 / R-9 no points, balls respotted, foul count +1; third foul → ball in hand anywhere; opponent places. */
function foulHandling(setup: RotationSetup, d: Core, ctx: StepContext, cueLost: boolean, lowestLost: boolean, why: OutcomeExtras): Transition {
  const p = ctx.by;
  const o = other(p);
  const n = d.fouls[idx(p)] + 1;
  const free = setup.options.threeFoulRule && n >= 3;
  d.fouls = withAt(d.fouls, p, free ? 0 : n);
  endTurn(d, o);
  d.awaiting = 'foul-placement';
  d.ballInHand = null;
  d.placement = { thirdFoul: free, cueBallLost: cueLost, lowestBallLost: lowestLost };
  why.foul = free ? 'third-foul' : 'foul'; // `why` is this call's own object (no spread on the hot path)
  why.turnEnd = why.foul;
  return { core: d, outcome: outcomeOf(ctx, d, 0, 0, why) };
}

/** Choices: push-out response (R-10), illegal-break choice (R-4b, D-17), foul placement (R-8, R-9). */
function choose(setup: RotationSetup, c: Core, choice: Choice): Transition {
  if (c.awaiting === null) throw new RulesError('no-choice-pending', 'step.choice: no decision is pending; record a shot', 'step.choice');
  const who = c.turn;
  const ctx: StepContext = { kind: 'choice', by: who, rack: c.rack, inning: undefined, run: 0 };
  if (c.awaiting === 'foul-placement') {
    if (typeof choice === 'string') {
      throw new RulesError('wrong-choice', 'step.choice: after a foul the choice is a placement {"cueBall": …, "lowestBall": …}', 'step.choice');
    }
    const why = placementRefusal(c.placement!, choice);
    if (why) throw new RulesError('placement-forbidden', `step.choice: ${why}`, 'step.choice');
    const d = draftOf(c);
    d.awaiting = null;
    d.placement = null;
    d.ballInHand = choice.cueBall === 'as-is' ? null : choice.cueBall;
    const placement = { cueBall: choice.cueBall, lowestBall: choice.lowestBall, ball: c.table?.[0] ?? null };
    return { core: d, outcome: outcomeOf(ctx, d, 0, 0, { placement }) };
  }
  const allowed: readonly string[] = CHOICE_WORDS[c.awaiting === 'push-out-choice' ? 'push-out-choice' : 'illegal-break-choice'];
  if (typeof choice !== 'string' || !allowed.includes(choice)) {
    const after = c.awaiting === 'push-out-choice' ? 'a push out' : 'an illegal break';
    throw new RulesError('wrong-choice', `step.choice: after ${after} the choice is ${allowed.map((a) => `"${a}"`).join(' or ')}`, 'step.choice');
  }
  const d = draftOf(c);
  d.awaiting = null;
  switch (choice) {
    case 'shoot':
      return { core: d, outcome: outcomeOf(ctx, d, 0, 0, { choice }) };
    case 'pass':
      // D-21: the pusher must shoot; a new inning for the pusher.
      d.turn = other(who);
      return { core: d, outcome: outcomeOf(ctx, d, 0, 0, { choice }) };
    case 'accept':
      // D-17 accept: play the position, cue ball in hand behind the head string; the push out is still available.
      d.ballInHand = 'kitchen';
      return { core: d, outcome: outcomeOf(ctx, d, 0, 0, { choice }) };
    default:
      // D-17 rerack: re-racked, the chooser breaks; rack number unchanged (D-11).
      d.breakShot = true;
      d.pushOutAvailable = false;
      d.ballInHand = 'kitchen';
      d.table = ALL_BALLS;
      d.count = 15;
      return { core: d, outcome: outcomeOf(ctx, d, 0, 0, { choice: 'rerack', rerack: { racked: 15, reason: 'illegal-break' } }) };
  }
}
