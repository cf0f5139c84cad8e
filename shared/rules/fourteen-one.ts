/**
 * 14-1 continuous (straight pool): seed 14-1 §01–§12 (NBA ch.13, June 2026) with the WPA differences,
 * as specified in rules.md §3 (S-1…S-21) and decisions D-1…D-16, D-25, D-30.
 * Every function is pure: (setup, core, step) → new core + outcome, or a thrown RulesError.
 */
import { RulesError } from '../protocol/errors';
import type { PlayerKey, StraightPoolSetup } from '../protocol/setup';
import type { Outcome, RackPlacement, TurnEnd } from '../protocol/state';
import type { Choice, RackArea, Step } from '../protocol/steps';
import {
  ALL_BALLS, addPoints, type Core, endTurn, idx, openInning, other, reachedTarget, signed, type Transition, withAt,
} from './core';
import { readShot, type ShotFacts, withoutBalls } from './shot-facts';

/**
 * Decide one 14-1 step (shot, choice, stalemate, warning).
 * @throws RulesError with a D-30 code when the rules cannot accept the step now.
 */
export function decideStraightPool(setup: StraightPoolSetup, c: Core, step: Step): Transition {
  if (c.winner) throw new RulesError('match-over', `the match is over: ${setup.players[idx(c.winner)]} has won`);
  if ('choice' in step) return choose(setup, c, step.choice);
  if ('stalemate' in step) return stalemate(setup, c, step.stalemate.breaker);
  if ('warning' in step) return warn(setup, c, step.warning);
  if ('shot' in step) {
    if (c.awaiting) throw pendingError(setup, c);
    if (step.shot.pushOut) throw new RulesError('push-out-not-allowed', 'shot.pushOut: a push out is a Rotation rule; 14-1 has none', 'shot.pushOut');
    const facts = readShot(step.shot, c.table, c.count, false);
    return shoot(setup, c, facts, step.shot.breakRails, step.shot.rackArea ?? {});
  }
  throw new RulesError('invalid-step', 'step: unknown step kind', 'step');
}

/** The error for a shot while a choice is pending (rules.md §1.3). */
export function pendingError(setup: { players: [string, string] }, c: Core): RulesError {
  return new RulesError('choice-pending', `shot: ${setup.players[idx(c.turn)]} must first answer the pending ${c.awaiting}`, 'shot');
}

/** A standard foul by the 14-1 list (S-12; 14-1 §08): no contact, no cushion, scratch, ball off the table, other fouls. */
function isStandardFoul(f: ShotFacts): boolean {
  return f.fouls.length > 0 || f.cueBall !== null || f.offTable.length > 0 || f.firstContact === null
    || (f.pocketedCount === 0 && !f.rail);
}

/** Opening-break requirement (S-8; 14-1 §05): called ball made, or cue ball and ≥ 2 object balls to a cushion. */
function breakRequirementMet(setup: StraightPoolSetup, f: ShotFacts, rails: { objectBalls: number; cueBall?: boolean } | undefined): boolean {
  if (f.call.kind === 'ball' && f.call.made) return true;
  const objectBalls = rails?.objectBalls ?? 2;
  const cueRail = (rails?.cueBall ?? true) || (setup.options.scratchCountsAsCueRailOnBreak && f.cueBall === 'scratch');
  return f.firstContact !== null && objectBalls >= 2 && cueRail;
}

function shoot(setup: StraightPoolSetup, c0: Core, f: ShotFacts, rails: { objectBalls: number; cueBall?: boolean } | undefined, rackArea: RackArea): Transition {
  const p = c0.turn;
  const o = other(p);
  const opened = openInning(c0);
  let c = opened.core;
  const base = { kind: 'shot' as const, by: p, rack: c0.rack, ...(opened.inning ? { inning: opened.inning } : {}) };
  const cueInHand = f.cueBall !== null ? 'kitchen' as const : null;
  const wasBreak = c.breakShot;

  if (wasBreak && !breakRequirementMet(setup, f, rails)) {
    // S-9 breaking foul: −2 (a scratch on it is included), no foul count either way (D-2), opponent chooses.
    const pen = setup.options.breakingFoulPenalty;
    c = endTurn({ ...c, score: withAt(c.score, p, c.score[idx(p)] - pen), breakShot: false, ballInHand: null, pendingBallInHand: cueInHand }, o);
    c = { ...c, awaiting: 'break-foul-choice' };
    return done(c, { ...base, points: 0, penalty: pen, foul: 'breaking-foul', turnEnd: 'breaking-foul',
      caption: `breaking foul: ${signed(-pen)} — ${setup.players[idx(o)]}: accept or re-break` });
  }
  c = { ...c, breakShot: false };

  if (isStandardFoul(f)) return standardFoul(setup, c, f, wasBreak, base);

  // Legal shot (S-6): clears the shooter's foul count.
  c = { ...c, fouls: withAt(c.fouls, p, 0), warned: withAt(c.warned, p, false) };
  if (f.call.kind !== 'ball' || !f.call.made) {
    // S-5 / S-11: safety or call not made — pocketed balls are spotted, turn passes, cue ball as it lies.
    const turnEnd: TurnEnd = f.call.kind === 'safety' ? 'safety' : 'miss';
    c = { ...endTurn(c, o), ballInHand: null };
    const spotted = f.pocketedCount > 0 ? `, ${f.pocketedCount} spotted` : '';
    return done(c, { ...base, points: 0, penalty: 0, turnEnd, ...(turnEnd === 'safety' ? { safety: true } : {}),
      caption: `${turnEnd}${spotted}` });
  }

  // S-4: called ball in the called pocket — every pocketed ball scores.
  const n = f.pocketedCount;
  c = addPoints(c, p, n);
  c = { ...c, count: c.count - n, table: f.pocketed ? withoutBalls(c.table, f.pocketed) : c.count - n === 0 ? [] : null, ballInHand: null };
  const caption = `${signed(n)} (run ${c.run})`;
  if (reachedTarget(setup, c, p)) {
    // §1.5, S-21, D-25: the match ends on the scoring shot; no re-rack.
    return done({ ...c, winner: p }, { ...base, points: n, penalty: 0, turnEnd: 'win', caption: `${caption} — ${setup.players[idx(p)]} wins` });
  }
  if (c.count <= 1) {
    const rr = rerackContinuous(c.count, rackArea);
    c = { ...c, rack: c.rack + 1, count: 15, table: ALL_BALLS, rackPlacement: rr.placement, ballInHand: rr.ballInHand };
    return done(c, { ...base, points: n, penalty: 0, rerack: { racked: rr.placement.racked, reason: 'continuous' },
      caption: `${caption}; re-rack: ${rr.placement.racked} balls` });
  }
  return done(c, { ...base, points: n, penalty: 0, caption });
}

/**
 * S-16–S-18 (14-1 §07 table; WPA 4.8): placement when a scoring shot leaves the break ball (1) or no ball (0).
 * Rack area facts default to "neither in the rack area".
 */
export function rerackContinuous(left: number, a: RackArea): { placement: RackPlacement; ballInHand: 'kitchen' | null } {
  const cue = a.cueBall ?? false;
  if (left === 0) {
    // S-18: 14th and break ball pocketed together — 15 racked; cue ball in hand behind the head string if in the rack area.
    return { placement: { cueBall: cue ? 'kitchen' : 'as-is', breakBall: 'racked', racked: 15 }, ballInHand: cue ? 'kitchen' : null };
  }
  const bb = a.breakBall ?? false;
  if (cue && bb) return { placement: { cueBall: 'kitchen', breakBall: 'racked', racked: 15 }, ballInHand: 'kitchen' }; // S-17(c)
  if (cue) {
    // S-17(a): break ball behind the head string → cue ball on the head spot (centre spot if taken); else in hand in the kitchen.
    if (a.breakBallInKitchen) {
      return { placement: { cueBall: a.headSpotTaken ? 'center-spot' : 'head-spot', breakBall: 'as-is', racked: 14 }, ballInHand: null };
    }
    return { placement: { cueBall: 'kitchen', breakBall: 'as-is', racked: 14 }, ballInHand: 'kitchen' };
  }
  if (bb) return { placement: { cueBall: 'as-is', breakBall: a.headSpotTaken ? 'center-spot' : 'head-spot', racked: 14 }, ballInHand: null }; // S-17(b)
  return { placement: { cueBall: 'as-is', breakBall: 'as-is', racked: 14 }, ballInHand: null }; // S-17(e)
}

type ShotBase = { kind: 'shot'; by: PlayerKey; rack: number; inning?: number };

/** S-10, S-13, S-14: −1, balls spotted, foul count (NBA: not on an opening break), third foul −16. */
function standardFoul(setup: StraightPoolSetup, c0: Core, f: ShotFacts, wasBreak: boolean, base: ShotBase): Transition {
  const p = c0.turn;
  const o = other(p);
  const opt = setup.options;
  const cueInHand = f.cueBall !== null ? 'kitchen' as const : null;
  let pen = opt.standardFoulPenalty;
  let c: Core = { ...c0, score: withAt(c0.score, p, c0.score[idx(p)] - pen) };
  const counted = !(wasBreak && opt.openingBreakFoulsCount === 'none');
  const what = f.cueBall === 'scratch' ? 'scratch' : f.cueBall === 'off-table' ? 'cue ball off the table' : 'foul';
  if (counted) {
    const n = c.fouls[idx(p)] + 1;
    const third = n >= 3 && (!opt.requireTwoFoulWarning || c.warned[idx(p)]);
    if (third) {
      const extra = opt.threeFoulExtraPenalty;
      pen += extra;
      c = { ...c, score: withAt(c.score, p, c.score[idx(p)] - extra), fouls: withAt(c.fouls, p, 0), warned: withAt(c.warned, p, false) };
      const foul = { ...base, points: 0, penalty: pen, foul: 'third-foul' as const, turnEnd: 'third-foul' as const };
      if (opt.threeFoulResolution === 'mandatory-rerack') {
        // WPA 4.11: re-rack 15, the offender breaks under opening-break rules as a new inning.
        c = { ...threeFoulRerack(endTurn(c, p)) };
        return done(c, { ...foul, rerack: { racked: 15, reason: 'three-foul' },
          caption: `third foul: ${signed(-pen)}; re-rack: 15 balls, ${setup.players[idx(p)]} breaks` });
      }
      // NBA 14-1 §09: the opponent chooses accept (play as it lies) or re-rack (offender breaks).
      c = { ...endTurn(c, o), awaiting: 'three-foul-choice', ballInHand: null, pendingBallInHand: cueInHand };
      return done(c, { ...foul, caption: `third foul: ${signed(-pen)} — ${setup.players[idx(o)]}: accept or re-rack` });
    }
    c = { ...c, fouls: withAt(c.fouls, p, Math.min(n, 2)) };
  }
  c = { ...endTurn(c, o), ballInHand: cueInHand };
  const two = c.fouls[idx(p)] === 2 ? `; ${setup.players[idx(p)]} on two fouls` : '';
  const hand = cueInHand ? ', ball in hand behind the head string' : '';
  return done(c, { ...base, points: 0, penalty: pen, foul: 'foul', turnEnd: 'foul', caption: `${what}: ${signed(-pen)}${hand}${two}` });
}

/** Re-rack 15 for an opening break by `c.turn` (S-14 re-rack, S-9 re-break, S-20 stalemate). */
function threeFoulRerack(c: Core): Core {
  return { ...c, rack: c.rack + 1, count: 15, table: ALL_BALLS, breakShot: true, ballInHand: 'kitchen', rackPlacement: null, awaiting: null };
}

/** Choices: after a breaking foul (S-9: accept / rebreak) and after a third foul under NBA (S-14, D-5: accept / rerack). */
function choose(setup: StraightPoolSetup, c: Core, choice: Choice): Transition {
  const who = c.turn;
  const offender = other(who);
  const name = setup.players[idx(who)];
  const base = { kind: 'choice' as const, by: who, points: 0, penalty: 0, rack: c.rack };
  if (c.awaiting === null) throw new RulesError('no-choice-pending', 'choice: no decision is pending; record a shot', 'choice');
  const allowed = c.awaiting === 'break-foul-choice' ? ['accept', 'rebreak'] : ['accept', 'rerack'];
  if (typeof choice !== 'string' || !allowed.includes(choice)) {
    throw new RulesError('wrong-choice', `choice: after a ${c.awaiting === 'break-foul-choice' ? 'breaking foul' : 'third foul'} the choice is ${allowed.map((a) => `"${a}"`).join(' or ')}`, 'choice');
  }
  if (choice === 'accept') {
    // Opponent plays the table as it lies; cue ball in hand behind the head string after a scratch.
    const next: Core = { ...c, awaiting: null, breakShot: false, ballInHand: c.pendingBallInHand, pendingBallInHand: null };
    return done(next, { ...base, caption: `${name} accepts the table` });
  }
  if (choice === 'rebreak') {
    // S-9: all 15 re-racked, the same breaker breaks again; rack number unchanged (D-11).
    const next: Core = { ...c, turn: offender, awaiting: null, breakShot: true, ballInHand: 'kitchen', pendingBallInHand: null, count: 15, table: ALL_BALLS };
    return done(next, { ...base, rerack: { racked: 15, reason: 'rebreak' }, caption: `re-break: ${setup.players[idx(offender)]} breaks again` });
  }
  // D-5 rerack: rack + 1, 15 balls, the offender opens under S-8.
  const next = threeFoulRerack({ ...c, turn: offender, pendingBallInHand: null });
  return done(next, { ...base, rerack: { racked: 15, reason: 'three-foul' }, caption: `re-rack: 15 balls, ${setup.players[idx(offender)]} breaks` });
}

/** S-20 stalemate (WPA 4.12): scores, fouls and innings kept; 15 re-racked, rack + 1; the lag winner opens. */
function stalemate(setup: StraightPoolSetup, c: Core, breaker: PlayerKey): Transition {
  if (c.awaiting) throw new RulesError('choice-pending', `stalemate: ${setup.players[idx(c.turn)]} must first answer the pending ${c.awaiting}`, 'stalemate');
  const next = threeFoulRerack(endTurn(c, breaker));
  return done(next, { kind: 'stalemate', by: breaker, points: 0, penalty: 0, rack: c.rack, rerack: { racked: 15, reason: 'stalemate' },
    caption: `stalemate: re-rack, ${setup.players[idx(breaker)]} breaks` });
}

/** S-15 (WPA 6.14): the referee warns a player on two fouls; only meaningful with `requireTwoFoulWarning`. */
function warn(setup: StraightPoolSetup, c: Core, p: PlayerKey): Transition {
  if (!setup.options.requireTwoFoulWarning) {
    throw new RulesError('invalid-step', 'warning: two-foul warnings are assumed given (set option requireTwoFoulWarning to record them)', 'warning');
  }
  if (c.fouls[idx(p)] !== 2) throw new RulesError('wrong-choice', `warning: ${setup.players[idx(p)]} is not on two fouls`, 'warning');
  return done({ ...c, warned: withAt(c.warned, p, true) }, { kind: 'warning', by: p, points: 0, penalty: 0, rack: c.rack,
    caption: `${setup.players[idx(p)]} warned: on two fouls` });
}

function done(core: Core, outcome: Outcome): Transition {
  return { core, outcome };
}
