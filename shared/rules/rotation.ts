/**
 * Rotation: seed ROT §01–§13 (NBA ch.11, June 2026), as specified in rules.md §4 (R-1…R-13) and
 * decisions D-17…D-29. Balls score their face value; the lowest ball must be hit first.
 * Every function is pure: (setup, core, step) → new core + outcome, or a thrown RulesError.
 */
import { RulesError } from '../protocol/errors';
import { RACK_CLINCH } from '../protocol/state';
import type { PlayerKey, RotationSetup } from '../protocol/setup';
import type { Choice, Placement, Step } from '../protocol/steps';
import {
  ALL_BALLS, addPoints, type Core, draftOf, endTurn, idx, openInning, other, outcomeOf, reachedTarget, signed,
  type StepContext, type Transition, withAt,
} from './core';
import { pendingError } from './fourteen-one';
import { placementRefusal } from './placement';
import { foulWords, readShot, type ShotFacts, withoutBalls } from './shot-facts';
import { checkOutcomeFacts, checkShot, checkStepVocabulary } from './shot-fields';

export { legalPlacements, placementRefusal } from './placement';


/**
 * Decide one Rotation step (shot or choice).
 * @throws RulesError with a D-30 code when the rules cannot accept the step now.
 */
export function decideRotation(setup: RotationSetup, c: Core, step: Step): Transition {
  if (c.winner) throw new RulesError('match-over', `the match is over: ${setup.players[idx(c.winner)]} has won`);
  if ('shot' in step) {
    if (c.awaiting) throw pendingError(setup, c);
    checkShot(setup, c, step.shot);
    const f = readShot(step.shot, c.table, c.count);
    const t = shoot(setup, c, f, step.shot.breakRails?.objectBalls ?? 4, step.shot.cueBallInKitchen ?? false);
    if (step.shot.cueBallInKitchen !== undefined) checkOutcomeFacts(setup, c, t.core, step.shot, f.pocketedCount);
    return t;
  }
  checkStepVocabulary(setup, step);
  if ('choice' in step) return choose(setup, c, step.choice);
  throw new RulesError('invalid-step', 'step: unknown step kind', 'step');
}

const lowest = (table: readonly number[]): number | undefined => table[0];
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
  const ctx: StepContext = { kind: 'shot', by: p, rack: c0.rack, inning: openInning(d) };
  const lowestLost = low !== undefined && (pocketed.includes(low) || f.offTable.includes(low));
  const cueLost = f.cueBall !== null;

  if (f.pushOut) {
    // R-10: relaxed requirements; only scratch, double hit and touched ball are fouls; pocketed balls are respotted.
    d.pushOutAvailable = false;
    if (cueLost || f.fouls.includes('double-hit') || f.fouls.includes('touched-ball')) {
      return foulHandling(setup, d, ctx, cueLost, lowestLost, 'foul on the push out');
    }
    if (d.fouls[idx(p)] !== 0) d.fouls = withAt(d.fouls, p, 0);
    endTurn(d, o);
    d.awaiting = 'push-out-choice';
    d.ballInHand = null;
    return { core: d, outcome: outcomeOf(ctx, 0, 0, 'push out', { turnEnd: 'push-out' }, ` — ${setup.players[idx(o)]}: shoot or pass`) };
  }

  const contact = f.firstContact === undefined ? low : f.firstContact;
  const foul = cueLost || f.offTable.length > 0 || f.fouls.length > 0 || contact !== low
    || (!isBreak && pocketed.length === 0 && !f.rail);
  // R-10: the push out is available on the one shot right after the break (D-18: also after a break foul).
  if (isBreak) {
    d.breakShot = false;
    d.pushOutAvailable = opt.pushOut;
  } else d.pushOutAvailable = false;
  if (foul) {
    const what = foulWords(f, contact !== low && contact !== null ? contact : undefined);
    return foulHandling(setup, d, ctx, cueLost, lowestLost, isBreak ? `break foul: ${what}` : what);
  }
  if (isBreak && pocketed.length === 0 && breakRails < 4) {
    // R-4b / D-17: illegal break, not a foul — the opponent accepts or re-racks and breaks.
    if (opt.illegalBreakPolicy === 'foul') return foulHandling(setup, d, ctx, cueLost, lowestLost, 'illegal break');
    endTurn(d, o);
    d.awaiting = 'illegal-break-choice';
    d.ballInHand = null;
    return { core: d, outcome: outcomeOf(ctx, 0, 0, 'illegal break', { turnEnd: 'illegal-break' }, ` — ${setup.players[idx(o)]}: accept or re-rack`) };
  }
  // Legal shot (R-9): clears the shooter's foul count.
  if (d.fouls[idx(p)] !== 0) d.fouls = withAt(d.fouls, p, 0);
  d.ballInHand = null;
  const called = f.call.kind === 'ball' && f.call.made;
  const safety = f.call.kind === 'safety';
  if ((opt.callShot && !isBreak && !called) || pocketed.length === 0) {
    // R-6a / D-19: safety, no call or call not made — no points, balls respotted, not a foul. Or nothing dropped.
    endTurn(d, o);
    const respot = pocketed.length ? `, ${pocketed.join(', ')} respotted` : '';
    return { core: d, outcome: outcomeOf(ctx, 0, 0, `${safety ? 'safety' : 'miss'}${respot}`, { turnEnd: safety ? 'safety' : 'miss', safety }) };
  }
  return score(setup, c0, d, ctx, pocketed, cueBallInKitchen);
}

/** On a draft: R-6 every legally pocketed ball scores its number; R-11 end of rack; R-3a 61; §1.5 target. */
function score(setup: RotationSetup, c0: Core, d: Core, ctx: StepContext, pocketed: number[], cueBallInKitchen: boolean): Transition {
  const p = ctx.by;
  const o = other(p);
  const pts = sum(pocketed);
  const balls = pocketed.length > 1 ? [...pocketed].sort((a, b) => a - b) : pocketed;
  addPoints(d, p, pts);
  const table = withoutBalls(d.table ?? ALL_BALLS, pocketed) ?? [];
  d.table = table;
  d.count = table.length;
  d.rackPoints = withAt(d.rackPoints, p, d.rackPoints[idx(p)] + pts);
  if (d.rackClinchedBy === null && d.rackPoints[idx(p)] >= RACK_CLINCH) d.rackClinchedBy = p;
  const caption = `${signed(pts)} (${balls.join(', ')})`;
  if (reachedTarget(setup, d, p)) {
    d.winner = p;
    return { core: d, outcome: outcomeOf(ctx, pts, 0, caption, { balls, turnEnd: 'win' }, ` — ${setup.players[idx(p)]} wins`) };
  }
  if (table.length > 0) {
    const clinch = d.rackClinchedBy === p && c0.rackClinchedBy === null ? `; rack clinched at ${RACK_CLINCH}` : '';
    return { core: d, outcome: outcomeOf(ctx, pts, 0, caption + clinch, { balls }) };
  }
  if (setup.options.format === 'single-rack-61') {
    // R-3a / D-24: all balls down without a 61 — higher rack wins; 60–60: the last ball's pocketer +1.
    const [a, b] = d.rackPoints;
    const winner: PlayerKey = a === b ? p : a > b ? 'A' : 'B';
    if (a === b) d.score = withAt(d.score, p, d.score[idx(p)] + 1);
    d.winner = winner;
    return { core: d, outcome: outcomeOf(ctx, pts, 0, `${caption}${a === b ? '; tie-break +1' : ''}`, { balls, turnEnd: 'win' }, ` — ${setup.players[idx(winner)]} wins the rack`) };
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
    return { core: d, outcome: outcomeOf(ctx, pts, 0, `${caption}; rack won`, { balls, rerack }, `, ${setup.players[idx(p)]} breaks rack ${d.rack}`) };
  }
  endTurn(d, o);
  d.ballInHand = 'kitchen';
  return { core: d, outcome: outcomeOf(ctx, pts, 0, `${caption}; rack won`, { balls, rerack, turnEnd: 'lost-break' }, `, ${setup.players[idx(o)]} breaks rack ${d.rack}`) };
}

/** On a draft: R-8 / R-9 no points, balls respotted, foul count +1; third foul → ball in hand anywhere; opponent places. */
function foulHandling(setup: RotationSetup, d: Core, ctx: StepContext, cueLost: boolean, lowestLost: boolean, what: string): Transition {
  const p = ctx.by;
  const o = other(p);
  const n = d.fouls[idx(p)] + 1;
  const free = setup.options.threeFoulRule && n >= 3;
  d.fouls = withAt(d.fouls, p, free ? 0 : n);
  endTurn(d, o);
  d.awaiting = 'foul-placement';
  d.ballInHand = null;
  d.placement = { thirdFoul: free, cueBallLost: cueLost, lowestBallLost: lowestLost };
  const then = free ? ` — ${setup.players[idx(o)]}: ball in hand anywhere` : ` — ${setup.players[idx(o)]} places the cue ball`;
  return { core: d, outcome: outcomeOf(ctx, 0, 0, free ? 'third foul' : what, { foul: free ? 'third-foul' : 'foul', turnEnd: free ? 'third-foul' : 'foul' }, then) };
}

const SPOT_WORDS = { 'as-is': 'as it lies', 'center-spot': 'on the centre spot', 'foot-spot': 'on the foot spot' } as const;
const CUE_WORDS = { 'as-is': 'as it lies', kitchen: 'in hand behind the head string', anywhere: 'in hand anywhere' } as const;

/** Choices: push-out response (R-10), illegal-break choice (R-4b, D-17), foul placement (R-8, R-9). */
function choose(setup: RotationSetup, c: Core, choice: Choice): Transition {
  if (c.awaiting === null) throw new RulesError('no-choice-pending', 'step.choice: no decision is pending; record a shot', 'step.choice');
  const who = c.turn;
  const name = setup.players[idx(who)];
  const ctx: StepContext = { kind: 'choice', by: who, rack: c.rack, inning: undefined };
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
    // Ball in hand is what comes next (the pages' situation line says it); the lowest ball's spot is the event.
    const lowest = `lowest ball ${SPOT_WORDS[choice.lowestBall]}`;
    return { core: d, outcome: choice.cueBall === 'as-is'
      ? outcomeOf(ctx, 0, 0, `cue ball ${CUE_WORDS['as-is']}, ${lowest}`)
      : outcomeOf(ctx, 0, 0, lowest, undefined, `, cue ball ${CUE_WORDS[choice.cueBall]}`) };
  }
  const allowed = c.awaiting === 'push-out-choice' ? ['shoot', 'pass'] : ['accept', 'rerack'];
  if (typeof choice !== 'string' || !allowed.includes(choice)) {
    const after = c.awaiting === 'push-out-choice' ? 'a push out' : 'an illegal break';
    throw new RulesError('wrong-choice', `step.choice: after ${after} the choice is ${allowed.map((a) => `"${a}"`).join(' or ')}`, 'step.choice');
  }
  const d = draftOf(c);
  d.awaiting = null;
  switch (choice) {
    case 'shoot':
      return { core: d, outcome: outcomeOf(ctx, 0, 0, `${name} shoots`) };
    case 'pass':
      // D-21: the pusher must shoot; a new inning for the pusher.
      d.turn = other(who);
      return { core: d, outcome: outcomeOf(ctx, 0, 0, `passed back: ${setup.players[idx(d.turn)]} shoots`) };
    case 'accept':
      // D-17 accept: play the position, cue ball in hand behind the head string; the push out is still available.
      d.ballInHand = 'kitchen';
      return { core: d, outcome: outcomeOf(ctx, 0, 0, `${name} accepts`, undefined, ', ball in hand behind the head string') };
    default:
      // D-17 rerack: re-racked, the chooser breaks; rack number unchanged (D-11).
      d.breakShot = true;
      d.pushOutAvailable = false;
      d.ballInHand = 'kitchen';
      d.table = ALL_BALLS;
      d.count = 15;
      return { core: d, outcome: outcomeOf(ctx, 0, 0, 're-rack', { rerack: { racked: 15, reason: 'illegal-break' } }, `: ${name} breaks`) };
  }
}
