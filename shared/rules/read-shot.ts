/**
 * Reads a referee's shot report (docs/case-format.md `shot`) against the table: fills the defaults, and refuses a
 * report that cannot be true on this table (D-30): a ball not on the table, more balls than the table holds.
 * What a report may carry at all, and facts that contradict each other, are checked before (./shot-checks).
 */
import { RulesError } from '../protocol/errors';
import type { FoulReason } from '../protocol/state';
import type { Shot, ShotFoul } from '../protocol/steps';

/** The call of a shot after defaults: nothing called, a safety, or a ball (number optional in 14-1). */
export type CallFacts = { kind: 'none' } | { kind: 'safety' } | { kind: 'ball'; ball?: number; made: boolean };

/** A shot report with every default filled in. */
export interface ShotFacts {
  call: CallFacts;
  /** Ball numbers that dropped, when named; null when only a count was given (14-1). */
  pocketed: number[] | null;
  pocketedCount: number;
  offTable: number[];
  /** First object ball hit: a number, null for none, undefined for "a legal first contact" (the default). */
  firstContact: number | null | undefined;
  /** Some ball reached a cushion after contact (or a ball dropped). */
  rail: boolean;
  cueBall: 'scratch' | 'off-table' | null;
  fouls: readonly ShotFoul[];
  pushOut: boolean;
}

const NONE: number[] = [];
const NO_FOULS: readonly ShotFoul[] = [];
/** The call facts without a ball, shared by every report (facts are never mutated; one allocation less per shot). */
const CALL_NONE: CallFacts = Object.freeze({ kind: 'none' });
const CALL_SAFETY: CallFacts = Object.freeze({ kind: 'safety' });
const onTable = (table: readonly number[] | null, b: number) => table === null || table.includes(b);

function refuse(field: string, reason: string, code: 'ball-not-on-table' | 'inconsistent-shot' = 'ball-not-on-table'): never {
  throw new RulesError(code, `step.shot.${field}: ${reason}`, `step.shot.${field}`);
}

/**
 * The same report as an object of one shape: every field of `Shot` in one order, undefined where the report has
 * none (which every reader takes as absent). Reports come in many shapes (the fields present differ), so each read
 * of one is a slow (megamorphic) lookup; the checks and the rules read a shot's fields some thirty times, this
 * copy eleven times. O(1); the report is not changed.
 */
export function shotOf(s: Shot): Shot {
  return {
    call: s.call,
    pocketed: s.pocketed,
    offTable: s.offTable,
    firstContact: s.firstContact,
    rail: s.rail,
    breakRails: s.breakRails,
    cueBall: s.cueBall,
    fouls: s.fouls,
    pushOut: s.pushOut,
    cueBallInKitchen: s.cueBallInKitchen,
    rackArea: s.rackArea,
  };
}

/**
 * Fill the defaults of a shot (already checked by `checkShot`) and check it against the table.
 * @param table balls on the table (ascending) or null when unknown; `count` is always known.
 * @throws RulesError `ball-not-on-table` or `inconsistent-shot`, naming `step.shot.<field>`.
 */
export function readShot(shot: Shot, table: readonly number[] | null, count: number): ShotFacts {
  // Each field of the report read once (reports come in many shapes: every read is a megamorphic lookup).
  const reportCall = shot.call;
  const reportPocketed = shot.pocketed;
  if (typeof reportCall === 'object' && reportCall.ball !== undefined && !onTable(table, reportCall.ball)) {
    refuse('call.ball', `ball ${reportCall.ball} is not on the table`);
  }
  let pocketed: number[] | null;
  let pocketedCount: number;
  if (typeof reportPocketed === 'number') {
    pocketed = null;
    pocketedCount = reportPocketed;
  } else {
    pocketed = reportPocketed ?? NONE;
    pocketedCount = pocketed.length;
  }
  if (pocketed) {
    for (let i = 0; i < pocketed.length; i++) {
      if (!onTable(table, pocketed[i]!)) refuse(`pocketed.${i}`, `ball ${pocketed[i]} is not on the table`);
    }
  }
  const offTable = shot.offTable ?? NONE;
  for (let i = 0; i < offTable.length; i++) {
    if (!onTable(table, offTable[i]!)) refuse(`offTable.${i}`, `ball ${offTable[i]} is not on the table`);
  }
  if (pocketedCount + offTable.length > count) {
    refuse('pocketed', `${pocketedCount + offTable.length} balls reported gone but only ${count} are on the table`, 'inconsistent-shot');
  }
  const firstContact = shot.firstContact;
  if (typeof firstContact === 'number' && !onTable(table, firstContact)) {
    refuse('firstContact', `ball ${firstContact} is not on the table`);
  }

  let call: CallFacts;
  if (reportCall === undefined) call = CALL_NONE;
  else if (reportCall === 'safety') call = CALL_SAFETY;
  else {
    const { ball, made } = reportCall;
    if (ball === undefined && made === undefined) {
      throw new RulesError('invalid-step', 'step.shot.call: name the called ball or say whether it was made', 'step.shot.call');
    }
    if (made === true && reportPocketed === undefined) {
      // "called ball made" alone: the called ball is the one that dropped.
      if (ball !== undefined) pocketed = [ball];
      else pocketed = null;
      pocketedCount = 1;
      if (count < 1) refuse('call.made', 'no ball is on the table', 'inconsistent-shot');
    }
    const isMade = made ?? (ball !== undefined && pocketed !== null ? pocketed.includes(ball) : pocketedCount > 0);
    call = ball === undefined ? { kind: 'ball', made: isMade } : { kind: 'ball', ball, made: isMade };
  }
  return {
    call,
    pocketed,
    pocketedCount,
    offTable,
    firstContact,
    rail: shot.rail ?? true,
    cueBall: shot.cueBall ?? null,
    fouls: shot.fouls ?? NO_FOULS,
    pushOut: shot.pushOut ?? false,
  };
}

/** Table after removing balls (ascending; the same array when none is removed); null stays null. */
export function withoutBalls(table: readonly number[] | null, balls: readonly number[]): readonly number[] | null {
  if (table === null) return null;
  if (balls.length === 0) return table; // tables are never mutated, so the same one serves
  // Ball numbers are 1–15: one bit each, so each table ball is tested in O(1).
  let gone = 0;
  for (let i = 0; i < balls.length; i++) gone |= 1 << balls[i]!;
  const out: number[] = [];
  for (let i = 0; i < table.length; i++) if ((gone & (1 << table[i]!)) === 0) out.push(table[i]!);
  return out;
}

/**
 * Why a shot is a foul, most visible first: scratch or cue ball off the table, no contact, the wrong ball
 * first (Rotation R-7: `wrongBall` is given), an object ball off the table, the report's other fouls, and no
 * cushion after contact when a cushion was required (`railRequired`: 14-1 S-12; Rotation except on the break).
 */
export function foulReasons(f: ShotFacts, railRequired: boolean, wrongBall?: number): FoulReason[] {
  const out: FoulReason[] = [];
  if (f.cueBall === 'scratch') out.push('scratch');
  else if (f.cueBall === 'off-table') out.push('cue-ball-off-table');
  if (f.firstContact === null) out.push('no-contact');
  else if (wrongBall !== undefined) out.push('wrong-ball');
  if (f.offTable.length > 0) out.push('ball-off-table');
  for (let i = 0; i < f.fouls.length; i++) out.push(f.fouls[i]!);
  if (railRequired && f.firstContact !== null && f.pocketedCount === 0 && !f.rail) out.push('no-rail');
  return out;
}
