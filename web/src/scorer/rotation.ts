/**
 * Rotation entry logic: the 15-ball picker's draft → `shot` steps (docs/case-format.md vocabulary), the controls
 * the panel offers with the question a shot needs (cue ball behind the head string on the last ball, R-11: the
 * engine's answer, ./questions `kitchenQuestion`) and the foul placement combinations the rules allow (R-8,
 * R-9, D-20). Pure functions over the public `MatchState`.
 */
import { RACK_BALLS } from '../../../shared/protocol/limits';
import type { RotationOptions, RotationSetup } from '../../../shared/protocol/setup';
import type { FoulPlacementFacts, MatchState } from '../../../shared/protocol/state';
import { legalPlacements } from '../../../shared/rules/placement';
import type { OtherFoul, Placement, Shot } from '../../../shared/protocol/steps';
import { shotConflict, type Conflict } from './conflicts';
import { kitchenQuestion } from './questions';

/** What the scorer tapped for the shot in progress. */
export interface RotationDraft {
  /** Balls tapped as pocketed, in tap order (in call mode the first is the called ball unless `called` says otherwise). */
  picked: number[];
  /** Call mode: the called ball as the scorer changed it (any ball on the table); unset = the first ball tapped. */
  called?: number;
  /** First object ball the cue ball hit; undefined = the lowest ball (the usual case), null = none. */
  firstContact?: number | null;
  /** Call mode: the called ball went into the called pocket (default true). */
  calledMade?: boolean;
}

export const emptyDraft = (): RotationDraft => ({ picked: [] });

export type RotationFoul = 'scratch' | 'wrong-ball' | 'no-contact' | 'no-rail' | 'off-table' | OtherFoul;
export const ROTATION_FOULS: readonly RotationFoul[] = [
  'scratch',
  'wrong-ball',
  'no-contact',
  'no-rail',
  'off-table',
  'touched-ball',
  'double-hit',
  'feet-off-floor',
];

/**
 * Toggle a ball in the draft (only balls on the table can be picked). Un-tapping the ball the scorer named
 * as the called one also forgets that choice (the call follows the first ball tapped again).
 */
export function toggleBall(d: RotationDraft, ball: number, onTable: readonly number[]): RotationDraft {
  if (!onTable.includes(ball)) return d;
  if (!d.picked.includes(ball)) return { ...d, picked: [...d.picked, ball] };
  const next: RotationDraft = { ...d, picked: d.picked.filter((b) => b !== ball) };
  if (next.called === ball) delete next.called;
  return next;
}

/** The draft without its picked balls (and the call that named one of them); the first contact stays. */
export function clearPicked(d: RotationDraft): RotationDraft {
  return d.firstContact === undefined ? emptyDraft() : { picked: [], firstContact: d.firstContact };
}

/** Call mode: the called ball — the scorer's choice, else the first ball tapped; null when nothing is tapped or called. */
export function calledBall(d: RotationDraft): number | null {
  return d.called ?? d.picked[0] ?? null;
}

/** Name `ball` (on the table) as the called ball. */
export function setCalled(d: RotationDraft, ball: number, onTable: readonly number[]): RotationDraft {
  return onTable.includes(ball) ? { ...d, called: ball } : d;
}

/** Keyboard: the next tapped ball becomes the called one (cycles through the tapped balls). */
export function nextCalled(d: RotationDraft): RotationDraft {
  if (d.picked.length === 0) return d;
  const at = d.picked.indexOf(calledBall(d) ?? -1);
  return { ...d, called: d.picked[(at + 1) % d.picked.length]! };
}

/**
 * Call mode: the call was made — the called ball is among the balls tapped as pocketed and the scorer did
 * not say it missed the called pocket (R-6a).
 */
export function callMade(d: RotationDraft): boolean {
  const c = calledBall(d);
  return c !== null && d.picked.includes(c) && d.calledMade !== false;
}

/** First contact the shot will carry: the scorer's pick, else the lowest ball (1 on a break). */
export function contactOf(s: MatchState, d: RotationDraft): number | null {
  if (d.firstContact !== undefined) return d.firstContact;
  return s.lowestBall ?? null;
}

/** Points the picked balls are worth (R-1: face value). */
export const pointsOf = (balls: readonly number[]) => balls.reduce((a, b) => a + b, 0);

/** Sorted copy of the picked balls (the wire order is ascending; the call is kept separately). */
const sorted = (b: readonly number[]) => [...b].sort((x, y) => x - y);

/**
 * A legal shot that pocketed the picked balls (or a miss when none were picked). In call mode the first
 * picked ball is the called one. `cueBallInKitchen` answers R-11 when the shot clears the table.
 */
export function madeShot(s: MatchState, d: RotationDraft, callShot: boolean, cueBallInKitchen?: boolean): Shot {
  const shot: Shot = { firstContact: contactOf(s, d) };
  if (d.picked.length > 0) shot.pocketed = sorted(d.picked);
  if (callShot && !s.breakShot && d.picked.length > 0) shot.call = { ball: calledBall(d)!, made: callMade(d) };
  if (cueBallInKitchen !== undefined) shot.cueBallInKitchen = cueBallInKitchen;
  return shot;
}

/** A called safety (call mode): no points, balls pocketed are respotted, turn passes (R-6a). */
export function safetyShot(s: MatchState, d: RotationDraft): Shot {
  const shot: Shot = { call: 'safety', firstContact: contactOf(s, d) };
  if (d.picked.length > 0) shot.pocketed = sorted(d.picked);
  return shot;
}

/** The opening break: 1-ball first; with nothing pocketed, 4+ balls to a cushion or an illegal break. */
export function rotationBreakShot(s: MatchState, d: RotationDraft, fourToCushion: boolean): Shot {
  const shot: Shot = { firstContact: d.firstContact !== undefined ? d.firstContact : (s.lowestBall ?? 1) };
  if (d.picked.length > 0) shot.pocketed = sorted(d.picked);
  else shot.breakRails = { objectBalls: fourToCushion ? 4 : 3 };
  return shot;
}

/** A declared push out: balls pocketed on it are respotted. */
export function pushOutShot(s: MatchState, d: RotationDraft): Shot {
  const shot: Shot = { pushOut: true, firstContact: contactOf(s, d) };
  if (d.picked.length > 0) shot.pocketed = sorted(d.picked);
  return shot;
}

/**
 * A foul. Picked balls are recorded as pocketed (they are respotted), or as driven off the table
 * for `off-table`. `wrongBall` is the ball hit first for `wrong-ball`.
 */
export function rotationFoulShot(s: MatchState, d: RotationDraft, foul: RotationFoul, wrongBall?: number): Shot {
  const shot: Shot = { firstContact: contactOf(s, d) };
  const picked = sorted(d.picked);
  if (foul === 'off-table') {
    shot.offTable = picked.length > 0 ? picked : [s.onTable?.[s.onTable.length - 1] ?? RACK_BALLS];
  } else if (picked.length > 0) {
    shot.pocketed = picked;
  }
  switch (foul) {
    case 'scratch':
      shot.cueBall = 'scratch';
      break;
    case 'wrong-ball': {
      const low = s.lowestBall;
      const chosen = typeof d.firstContact === 'number' && d.firstContact !== low ? d.firstContact : undefined;
      const other = wrongBall ?? chosen ?? (s.onTable ?? []).find((b) => b !== low) ?? null;
      shot.firstContact = other;
      break;
    }
    case 'no-contact':
      shot.firstContact = null;
      break;
    case 'no-rail':
      shot.rail = false;
      break;
    case 'off-table':
      break;
    default:
      shot.fouls = [foul];
  }
  return shot;
}

/**
 * Every legal cue-ball / lowest-ball combination for the pending foul (R-8 table, R-9, D-20), "as is / as is"
 * first, from the facts the state carries; the rules themselves live in shared/rules/placement.ts.
 * @param lowestInKitchen the scorer's answer: the lowest ball lies behind the head string.
 */
export function placementOptions(facts: FoulPlacementFacts, lowestInKitchen: boolean): Placement[] {
  return legalPlacements(facts, lowestInKitchen).map((p) => (lowestInKitchen ? { ...p, lowestBallInKitchen: true } : p));
}

/**
 * whether "the lowest ball lies behind the head string" can change the legal placements of the pending
 * foul. It cannot when the lowest ball was pocketed or left the table (it is spotted anyway) or after a third
 * foul (cue ball in hand anywhere): the console then does not ask.
 */
export function lowestKitchenMatters(facts: FoulPlacementFacts): boolean {
  const key = (ps: Placement[]) => JSON.stringify(ps.map((p) => [p.cueBall, p.lowestBall]));
  return key(legalPlacements(facts, false)) !== key(legalPlacements(facts, true));
}

/**
 * The foul the draft's first contact already makes: no ball hit, or a ball other than the lowest hit
 * first; null when the first contact is the lowest ball. The console then records that foul in one tap.
 */
export function impliedFoul(s: MatchState, d: RotationDraft): 'wrong-ball' | 'no-contact' | null {
  const contact = contactOf(s, d);
  if (contact === null) return s.lowestBall === null ? null : 'no-contact';
  return contact !== s.lowestBall ? 'wrong-ball' : null;
}

/** The first-hit choices: each ball on the table once (the lowest marked as the default), then "none". */
export function firstHitOptions(s: MatchState): { value: string; ball: number | null; isDefault: boolean }[] {
  const onTable = s.onTable ?? [];
  return [...onTable.map((b) => ({ value: String(b), ball: b, isDefault: b === s.lowestBall })), { value: 'none', ball: null, isDefault: false }];
}

/** The draft's first contact from the select's value: the lowest ball is the default (undefined). */
export function contactFromValue(s: MatchState, value: string): number | null | undefined {
  if (value === 'none') return null;
  const b = Number(value);
  return !Number.isInteger(b) || b === s.lowestBall ? undefined : b;
}

/** A push out may be declared now: the option is on and this is the shot right after the break. */
export function pushOutOffered(s: MatchState, opts: Pick<RotationOptions, 'pushOut'>): boolean {
  return opts.pushOut && s.pushOutAvailable && !s.breakShot;
}

/**
 * The fouls the foul menu lists for this shot, in ROTATION_FOULS order (a foul keeps its number key
 * whatever is left out): not "no rail" on the break, whose cushions are the break's own question (fewer
 * than four balls to a cushion, R-4; `rail` belongs to other shots), and not "wrong ball first" when the
 * lowest ball is the only one on the table.
 */
export function foulMenu(s: MatchState): RotationFoul[] {
  return ROTATION_FOULS.filter((f) => !(f === 'no-rail' && s.breakShot) && !(f === 'wrong-ball' && (s.onTable ?? []).length < 2));
}

/** A control of the Rotation panel (or its key) with the step it sends and why it is off, if it is. */
export interface RotationAction {
  /**
   * `record` (the picked balls, legal), `miss` (nothing picked), `safety` (call shot), `push-out`,
   * `break` (the break with balls pocketed), `break-4` / `break-under4` (nothing pocketed: four or more
   * balls to a cushion, or fewer), `implied` (the foul the first contact makes, one tap), `foul:<foul>`.
   */
  id: string;
  shot: Shot;
  /** The facts entered contradict this step (./conflicts): the control is shown disabled, with why. */
  conflict: Conflict | null;
  /** `record` on a shot the engine ends the rack on, the match going on: ask R-11 first, then send `madeShot(…, answer)`. */
  kitchen?: true;
}

/**
 * Every control the Rotation panel offers for the state and the draft, with the exact step each sends:
 * the panel, its keys and tests/scorer/console-legal.test.ts all go through this list, so what is enabled
 * is what the rules accept. With a first contact that makes a foul (no ball, or not the lowest) the shot
 * can only be that foul, another foul or a push out; otherwise the break's or the ordinary shot's buttons.
 * `setup`: the match's (its options shape the controls; the engine answers the R-11 question with it).
 */
export function rotationActions(s: MatchState, d: RotationDraft, setup: RotationSetup): RotationAction[] {
  const opts = setup.options;
  const out: RotationAction[] = [];
  const add = (id: string, shot: Shot, kitchen = false) => out.push({ id, shot, conflict: shotConflict(shot), ...(kitchen ? { kitchen: true as const } : {}) });
  const implied = impliedFoul(s, d);
  const callMode = opts.callShot && !s.breakShot;
  if (implied) add('implied', rotationFoulShot(s, d, implied));
  else if (s.breakShot) {
    if (d.picked.length > 0) add('break', rotationBreakShot(s, d, true));
    else {
      add('break-4', rotationBreakShot(s, d, true));
      add('break-under4', rotationBreakShot(s, d, false));
    }
  } else {
    if (d.picked.length > 0) {
      const shot = madeShot(s, d, opts.callShot);
      add('record', shot, kitchenQuestion(setup, s, shot));
    } else add('miss', madeShot(s, d, opts.callShot));
    if (callMode) add('safety', safetyShot(s, d));
  }
  if (pushOutOffered(s, opts)) add('push-out', pushOutShot(s, d));
  for (const f of foulMenu(s)) add(`foul:${f}`, rotationFoulShot(s, d, f));
  return out;
}
