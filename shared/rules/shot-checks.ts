/**
 * Which facts a step may carry (D-30; docs/case-format.md `shot` and `choice`), in one place:
 * - `SHOT_FACTS`, the allowed-fields table: each fact of a shot report and the kinds of shot it belongs to in
 *   each discipline (an empty list: the discipline does not have it);
 * - `CONTRADICTIONS`: facts of one shot that cannot both be true (a time foul, D-32, with any other fact);
 * - the facts that fit one outcome only (the 14-1 rack area on a re-rack, the Rotation cue ball behind the head
 *   string when the table is cleared), checked once the shot is decided;
 * - the step kinds of each discipline, and which choice words are the other discipline's (the words: ./choice-words).
 * Every refusal is a RulesError naming the exact field (`step.shot.rackArea.breakBallInKitchen`) and why, thrown
 * before the match changes. Nothing is decided here; the rules in ./fourteen-one.ts and ./rotation.ts call in.
 */
import { RulesError } from '../protocol/errors';
import type { Discipline, MatchSetup } from '../protocol/setup';
import { type Choice, OTHER_FOULS, type OtherFoul, type Shot, type ShotFoul, type Step, TIME_FOUL } from '../protocol/steps';
import { disciplineChoiceWords } from './choice-words';
import type { Core } from './core';

/** The kind of shot a report is checked against: an opening break, an ordinary shot, a Rotation push out. */
export type ShotKind = 'break' | 'shot' | 'push-out';

type Kinds = readonly ShotKind[];
const BREAK_OR_SHOT: Kinds = ['break', 'shot'];
const ANY: Kinds = ['break', 'shot', 'push-out'];
const NOWHERE: Kinds = [];

const KIND_WORDS: Record<ShotKind, string> = {
  break: 'an opening break',
  shot: 'an ordinary shot',
  'push-out': 'a push out',
};

/** One row of the allowed-fields table: a fact a shot report may carry and where it belongs. */
export interface ShotFactRule {
  /** Stable id of the row. */
  readonly id: string;
  /** The report's field the fact is read from (its presence, or for `whenAbsent` its absence, is a quick pre-check). */
  readonly key: keyof Shot;
  /** The fact is the field's absence (nothing called). */
  readonly whenAbsent?: true;
  /** Path under `step.shot` where the report carries the fact (`fouls.2`), or null when it does not. */
  locate(shot: Shot): string | null;
  /** Kinds of shot the fact belongs to, per discipline; empty: the discipline does not have the fact. */
  readonly kinds: Readonly<Record<Discipline, Kinds>>;
  /** A Rotation option the fact needs (a call needs call shot). */
  readonly option?: 'callShot';
  /** Why the discipline whose `kinds` are empty does not have it (with the rule). */
  readonly foreign?: string;
  /** Where the fact belongs, for a report of another kind of shot (with the rule). */
  readonly elsewhere?: string;
  /** Why the fact needs `option`. */
  readonly optionOff?: string;
}

const at = (field: string, present: boolean): string | null => (present ? field : null);
const objectCall = (s: Shot) => (typeof s.call === 'object' ? s.call : undefined);
/** The report is a time foul (D-32): the shot clock ran out before the stroke. */
const isTimeFoul = (s: Shot): boolean => s.fouls !== undefined && s.fouls.includes(TIME_FOUL);

/** Fouls that still count on a Rotation push out, besides the cue ball leaving the table (ROT §08, R-10). */
export const PUSH_OUT_FOULS: readonly OtherFoul[] = ['touched-ball', 'double-hit'];

const foulRow = (foul: OtherFoul): ShotFactRule => ({
  id: `fouls:${foul}`,
  key: 'fouls',
  locate: (s) => {
    const i = s.fouls ? s.fouls.indexOf(foul) : -1;
    return i < 0 ? null : `fouls.${i}`;
  },
  kinds: { '14-1': BREAK_OR_SHOT, rotation: PUSH_OUT_FOULS.includes(foul) ? ANY : BREAK_OR_SHOT },
  elsewhere: 'on a push out the only fouls are a scratch (or the cue ball off the table), a double hit and a touched ball (ROT §08, R-10)',
});

const CALL_ELSEWHERE = 'a call belongs to an ordinary Rotation shot: the break is never called (ROT §05, R-4) and a push out is not a called shot (R-10)';
const CALL_OFF = 'call shot is off in this match, so a Rotation shot carries no call (ROT §05, R-6); set the option callShot to record calls';

/**
 * The allowed-fields table (docs/case-format.md `shot` × discipline × kind of shot). A sub-field (`call.ball`,
 * `breakRails.objectBalls`, `rackArea.cueBall`) belongs where its parent does unless a row of its own says
 * otherwise. Facts that also depend on the outcome or on other facts are checked by `CONTRADICTIONS` and
 * `checkOutcomeFacts`.
 */
export const SHOT_FACTS: readonly ShotFactRule[] = [
  {
    id: 'call:none',
    key: 'call',
    whenAbsent: true,
    // A time foul has no stroke, so nothing was called (D-32).
    locate: (s) => at('call', s.call === undefined && !isTimeFoul(s)),
    kinds: { '14-1': NOWHERE, rotation: ANY },
    foreign: 'every 14-1 shot is called, the opening break included: {"ball": n}, {"made": true|false} or "safety" (S-3; 14-1 §04)',
  },
  {
    id: 'call',
    key: 'call',
    locate: (s) => at('call', s.call !== undefined),
    kinds: { '14-1': BREAK_OR_SHOT, rotation: ['shot'] },
    option: 'callShot',
    elsewhere: CALL_ELSEWHERE,
    optionOff: CALL_OFF,
  },
  {
    id: 'call:count-only',
    key: 'call',
    locate: (s) => at('call.ball', objectCall(s) !== undefined && objectCall(s)!.ball === undefined),
    kinds: { '14-1': BREAK_OR_SHOT, rotation: NOWHERE },
    foreign: 'Rotation names the called ball, {"ball": n}; a call without its number is the 14-1 count-only form (ROT §05)',
  },
  { id: 'pocketed', key: 'pocketed', locate: (s) => at('pocketed', Array.isArray(s.pocketed)), kinds: { '14-1': BREAK_OR_SHOT, rotation: ANY } },
  {
    id: 'pocketed:count',
    key: 'pocketed',
    locate: (s) => at('pocketed', typeof s.pocketed === 'number'),
    kinds: { '14-1': BREAK_OR_SHOT, rotation: NOWHERE },
    foreign: 'Rotation names the pocketed balls, a list of numbers, because each ball scores its number (R-1); a count is the 14-1 form',
  },
  { id: 'offTable', key: 'offTable', locate: (s) => at('offTable', s.offTable !== undefined), kinds: { '14-1': BREAK_OR_SHOT, rotation: ANY } },
  { id: 'firstContact', key: 'firstContact', locate: (s) => at('firstContact', s.firstContact !== undefined), kinds: { '14-1': BREAK_OR_SHOT, rotation: ANY } },
  {
    id: 'rail',
    key: 'rail',
    locate: (s) => at('rail', s.rail !== undefined),
    kinds: { '14-1': ['shot'], rotation: ['shot', 'push-out'] },
    elsewhere: 'on an opening break the cushions are reported in breakRails (S-8, R-4); rail is the cushion after contact of any other shot (S-12, R-7)',
  },
  {
    id: 'breakRails',
    key: 'breakRails',
    locate: (s) => at('breakRails', s.breakRails !== undefined),
    kinds: { '14-1': ['break'], rotation: ['break'] },
    elsewhere:
      'breakRails is reported on an opening break only (S-8, R-4; D-12: the first shot after a 14-1 re-rack is an ordinary shot); other shots report rail',
  },
  {
    id: 'breakRails.cueBall',
    key: 'breakRails',
    locate: (s) => at('breakRails.cueBall', s.breakRails?.cueBall !== undefined),
    kinds: { '14-1': ['break'], rotation: NOWHERE },
    foreign:
      'the Rotation break counts object balls at the cushions only, {"objectBalls": n} (R-4); the cue ball at a cushion is a 14-1 break requirement (S-8)',
  },
  { id: 'cueBall', key: 'cueBall', locate: (s) => at('cueBall', s.cueBall !== undefined), kinds: { '14-1': BREAK_OR_SHOT, rotation: ANY } },
  { id: 'fouls', key: 'fouls', locate: (s) => at('fouls', s.fouls !== undefined), kinds: { '14-1': BREAK_OR_SHOT, rotation: ANY } },
  ...OTHER_FOULS.map(foulRow),
  {
    id: 'fouls:time',
    key: 'fouls',
    locate: (s) => {
      const i = s.fouls ? s.fouls.indexOf(TIME_FOUL) : -1;
      return i < 0 ? null : `fouls.${i}`;
    },
    kinds: { '14-1': ['shot'], rotation: ['shot'] },
    elsewhere:
      'a time foul (D-32) is recorded alone in place of an ordinary shot: the shot clock does not run for an opening break, and a push out is a stroke (R-10)',
  },
  {
    id: 'pushOut',
    key: 'pushOut',
    locate: (s) => at('pushOut', s.pushOut !== undefined),
    kinds: { '14-1': NOWHERE, rotation: ANY },
    foreign: 'a push out is a Rotation rule (ROT §08, R-10); 14-1 has none',
  },
  {
    id: 'cueBallInKitchen',
    key: 'cueBallInKitchen',
    locate: (s) => at('cueBallInKitchen', s.cueBallInKitchen !== undefined),
    kinds: { '14-1': NOWHERE, rotation: BREAK_OR_SHOT },
    foreign: 'whether the cue ball stopped behind the head string decides the next Rotation break (R-11); a 14-1 re-rack reports rackArea',
    elsewhere: 'a push out never ends the rack: balls pocketed on it are respotted (ROT §08, R-10)',
  },
  {
    id: 'rackArea',
    key: 'rackArea',
    locate: (s) => at('rackArea', s.rackArea !== undefined),
    kinds: { '14-1': BREAK_OR_SHOT, rotation: NOWHERE },
    foreign: 'the rack area decides a 14-1 re-rack (S-16–S-18; 14-1 §07); every Rotation rack is racked in full (R-11)',
  },
];

/** A contradiction found in one report: the field to name and why. */
export interface Conflict {
  field: string;
  why: string;
}

/** Facts of one shot that cannot both be true (D-30). `find` returns the first conflict in the report, or null. */
export interface Contradiction {
  readonly id: string;
  /** Fields of which at least one must be in the report for the contradiction to arise (a quick pre-check). */
  readonly needs: readonly (keyof Shot)[];
  find(shot: Shot, kind: ShotKind): Conflict | null;
}

/** Why a report with no first contact cannot have moved object balls (`what`: "dropped", "left the table"…). */
const noContactWhy = (what: string) =>
  `the cue ball hit no object ball (firstContact null), so no object ball can have ${what}; report the foul that moved it (touched ball, shot while balls moved, cue on the table)`;

/** Fouls that can move object balls although the cue ball hit none. */
const MOVES_BALLS: readonly ShotFoul[] = ['touched-ball', 'balls-moving', 'cue-on-table'];

/** Whether the report says object balls dropped (a list, a count, or a made call without a list). */
function ballsDropped(s: Shot): boolean {
  if (Array.isArray(s.pocketed)) return s.pocketed.length > 0;
  if (typeof s.pocketed === 'number') return s.pocketed > 0;
  return objectCall(s)?.made === true;
}

/** First entry of a list equal to an earlier one: its index, or -1. */
function repeatAt<T>(list: readonly T[] | undefined): number {
  if (!list) return -1;
  for (let i = 1; i < list.length; i++) if (list.indexOf(list[i]!) < i) return i;
  return -1;
}

/** The fields a time foul cannot come with, in the order a refusal names them (every field of a report but `fouls`). */
const NOT_WITH_TIME: readonly Exclude<keyof Shot, 'fouls'>[] = [
  'call',
  'pocketed',
  'offTable',
  'firstContact',
  'rail',
  'breakRails',
  'cueBall',
  'pushOut',
  'cueBallInKitchen',
  'rackArea',
];
const NO_STROKE = 'a time foul (D-32: the shot clock ran out before the stroke) is recorded alone: no stroke was played';

export const CONTRADICTIONS: readonly Contradiction[] = [
  {
    id: 'time-foul-with-other-facts',
    needs: ['fouls'],
    find: (s) => {
      if (!isTimeFoul(s)) return null;
      for (const k of NOT_WITH_TIME) if (s[k] !== undefined) return { field: k, why: `${NO_STROKE}, so the report carries no ${k}` };
      const i = s.fouls!.findIndex((f) => f !== TIME_FOUL);
      return i < 0 ? null : { field: `fouls.${i}`, why: `${NO_STROKE}, so no other foul ("${s.fouls![i]}") can have happened on it` };
    },
  },
  {
    id: 'ball-listed-twice',
    needs: ['pocketed', 'offTable'],
    find: (s) => {
      let seen = 0; // bit set of the ball numbers listed so far
      const pocketed = Array.isArray(s.pocketed) ? s.pocketed : [];
      for (let i = 0; i < pocketed.length; i++) {
        if (seen & (1 << pocketed[i]!)) return { field: `pocketed.${i}`, why: `ball ${pocketed[i]} is listed twice` };
        seen |= 1 << pocketed[i]!;
      }
      const off = s.offTable ?? [];
      for (let i = 0; i < off.length; i++) {
        if (seen & (1 << off[i]!))
          return { field: `offTable.${i}`, why: `ball ${off[i]} is listed twice (pocketed and off the table, or twice off the table)` };
        seen |= 1 << off[i]!;
      }
      return null;
    },
  },
  {
    id: 'foul-listed-twice',
    needs: ['fouls'],
    find: (s) => {
      const i = repeatAt(s.fouls);
      return i < 0 ? null : { field: `fouls.${i}`, why: `the foul "${s.fouls![i]}" is listed twice (several fouls on one shot are one foul, §1.2)` };
    },
  },
  {
    id: 'made-call-not-pocketed',
    needs: ['call'],
    find: (s) => {
      const call = objectCall(s);
      if (call?.made !== true || call.ball === undefined || !Array.isArray(s.pocketed) || s.pocketed.length === 0) return null;
      return s.pocketed.includes(call.ball) ? null : { field: 'call.made', why: `the called ball ${call.ball} is not among the pocketed balls` };
    },
  },
  {
    id: 'made-call-nothing-pocketed',
    needs: ['call'],
    find: (s) =>
      objectCall(s)?.made === true && (s.pocketed === 0 || (Array.isArray(s.pocketed) && s.pocketed.length === 0))
        ? { field: 'call.made', why: 'the called ball was made but no ball is reported pocketed' }
        : null,
  },
  {
    id: 'no-contact-balls-moved',
    needs: ['firstContact'],
    find: (s, kind) => {
      if (s.firstContact !== null || (s.fouls ?? []).some((f) => MOVES_BALLS.includes(f))) return null;
      if (ballsDropped(s)) return { field: 'firstContact', why: noContactWhy('dropped') };
      if ((s.offTable ?? []).length > 0) return { field: 'firstContact', why: noContactWhy('left the table') };
      if (kind === 'break' && (s.breakRails?.objectBalls ?? 0) > 0) return { field: 'breakRails.objectBalls', why: noContactWhy('reached a cushion') };
      return null;
    },
  },
  {
    id: 'no-rail-but-pocketed',
    needs: ['rail'],
    find: (s) =>
      s.rail === false && ballsDropped(s)
        ? { field: 'rail', why: '"rail": false says no ball reached a cushion and none dropped after contact, yet balls are reported pocketed' }
        : null,
  },
  {
    id: 'cue-ball-gone-but-in-rack-area',
    needs: ['rackArea'],
    find: (s) =>
      s.cueBall !== undefined && s.rackArea?.cueBall === true
        ? { field: 'rackArea.cueBall', why: `the cue ball left the table (${s.cueBall}), so it cannot lie in the rack area` }
        : null,
  },
  {
    id: 'cue-ball-gone-but-in-kitchen',
    needs: ['cueBallInKitchen'],
    find: (s) =>
      s.cueBall !== undefined && s.cueBallInKitchen === true
        ? { field: 'cueBallInKitchen', why: `the cue ball left the table (${s.cueBall}), so it cannot rest behind the head string` }
        : null,
  },
  {
    id: 'break-ball-in-two-places',
    needs: ['rackArea'],
    find: (s) =>
      s.rackArea?.breakBall === true && s.rackArea.breakBallInKitchen === true
        ? { field: 'rackArea.breakBallInKitchen', why: 'the break ball cannot lie both in the rack area (at the foot of the table) and behind the head string' }
        : null,
  },
  {
    id: 'head-spot-with-both-in-rack-area',
    needs: ['rackArea'],
    find: (s) =>
      s.rackArea?.cueBall === true && s.rackArea.breakBall === true && s.rackArea.headSpotTaken === true
        ? { field: 'rackArea.headSpotTaken', why: 'with the cue ball and the break ball both in the rack area, neither sits on the head spot' }
        : null,
  },
];

const refusal = (code: 'foreign-fact' | 'not-for-this-shot' | 'inconsistent-shot', field: string, why: string) =>
  new RulesError(code, `step.shot.${field}: ${why}`, `step.shot.${field}`);

const DISCIPLINE_WORDS: Record<Discipline, string> = { '14-1': '14-1', rotation: 'Rotation' };

/**
 * One bit per field of the report. A `Record` over every key of `Shot`, so a new field of the step vocabulary
 * does not compile until it has a bit (and the table test then asks for its row).
 */
const FIELD_BITS: Readonly<Record<keyof Shot, number>> = {
  call: 1,
  pocketed: 2,
  offTable: 4,
  firstContact: 8,
  rail: 16,
  breakRails: 32,
  cueBall: 64,
  fouls: 128,
  pushOut: 256,
  cueBallInKitchen: 512,
  rackArea: 1024,
};

/**
 * The fields a report carries (present and not undefined), as bits. Each field is read by name (a for-in loop
 * over the report's keys cost a few per cent of a replay); FIELD_ORDER makes the compiler ask for a new field.
 */
function fieldsOf(shot: Shot): number {
  return (
    (shot.call !== undefined ? 1 : 0) |
    (shot.pocketed !== undefined ? 2 : 0) |
    (shot.offTable !== undefined ? 4 : 0) |
    (shot.firstContact !== undefined ? 8 : 0) |
    (shot.rail !== undefined ? 16 : 0) |
    (shot.breakRails !== undefined ? 32 : 0) |
    (shot.cueBall !== undefined ? 64 : 0) |
    (shot.fouls !== undefined ? 128 : 0) |
    (shot.pushOut !== undefined ? 256 : 0) |
    (shot.cueBallInKitchen !== undefined ? 512 : 0) |
    (shot.rackArea !== undefined ? 1024 : 0)
  );
}

/** The fields `fieldsOf` reads, in bit order: a field missing here (or out of order) does not compile. */
const FIELD_ORDER = [
  'call',
  'pocketed',
  'offTable',
  'firstContact',
  'rail',
  'breakRails',
  'cueBall',
  'fouls',
  'pushOut',
  'cueBallInKitchen',
  'rackArea',
] as const;
type Missing = Exclude<keyof Shot, (typeof FIELD_ORDER)[number]>;
const _everyField: [Missing] extends [never] ? true : Missing = true;
void _everyField;
FIELD_ORDER.forEach((k, i) => {
  if (FIELD_BITS[k] !== 1 << i) throw new Error(`shot-checks: FIELD_BITS.${k} is not bit ${i}`);
});

const FOREIGN = 1;
const OTHER_KIND = 2;
const KINDS: readonly ShotKind[] = ['break', 'shot', 'push-out'];

/** For one discipline × call-shot option × kind of shot: the rows that can refuse, their verdicts and fields. */
interface Plan {
  /** Row indexes (table order) whose verdict is not "allowed". */
  rows: number[];
  verdict: number[];
  /** Field bit of each of those rows; `absent`: the row is the field's absence. */
  bit: number[];
  absent: boolean[];
  /** Union of the bits of the rows about a present field: a report without them passes at once. */
  suspect: number;
  /** Whether a report without the `call` field can be refused. */
  absentCall: boolean;
}

/** The twelve plans, computed once from SHOT_FACTS. */
const PLANS: readonly Plan[] = (['14-1', 'rotation'] as const).flatMap((d) =>
  [false, true].flatMap((callShot) =>
    KINDS.map((kind) => {
      const plan: Plan = { rows: [], verdict: [], bit: [], absent: [], suspect: 0, absentCall: false };
      SHOT_FACTS.forEach((row, i) => {
        const kinds = row.kinds[d];
        const optionOff = row.option !== undefined && d === 'rotation' && !callShot;
        const v = kinds.length === 0 || optionOff ? FOREIGN : kinds.includes(kind) ? 0 : OTHER_KIND;
        if (v === 0) return;
        plan.rows.push(i);
        plan.verdict.push(v);
        plan.bit.push(FIELD_BITS[row.key]);
        plan.absent.push(row.whenAbsent === true);
        if (row.whenAbsent) plan.absentCall = true;
        else plan.suspect |= FIELD_BITS[row.key];
      });
      return plan;
    }),
  ),
);
const planFor = (setup: MatchSetup, kind: ShotKind): Plan =>
  PLANS[(setup.discipline === 'rotation' ? 6 : 0) + (setup.discipline === 'rotation' && setup.options.callShot ? 3 : 0) + KINDS.indexOf(kind)]!;

/** Bits of the fields each contradiction needs (one of them present). */
const CONTRADICTION_BITS: readonly number[] = CONTRADICTIONS.map((c) => c.needs.reduce((b, k) => b | FIELD_BITS[k], 0));

/**
 * Check a shot report against the table before anything is decided: facts of the other discipline or of an
 * option that is off (`foreign-fact`), a push out the rules do not allow now (`push-out-not-allowed`, R-10),
 * facts of another kind of shot (`not-for-this-shot`), facts that contradict each other (`inconsistent-shot`).
 * When several facts are refused, the first row of the table is named, a foreign fact before the others.
 * @returns the kind of shot the report is. @throws RulesError naming `step.shot.<field>`.
 */
export function checkShot(setup: MatchSetup, c: Core, shot: Shot): ShotKind {
  const d = setup.discipline;
  const kind: ShotKind = d === 'rotation' && shot.pushOut ? 'push-out' : c.breakShot ? 'break' : 'shot';
  const plan = planFor(setup, kind);
  const fields = fieldsOf(shot);
  let foreign = -1;
  let other = -1;
  if ((fields & plan.suspect) !== 0 || (plan.absentCall && (fields & FIELD_BITS.call) === 0)) {
    for (let j = 0; j < plan.rows.length; j++) {
      if (((fields & plan.bit[j]!) === 0) !== plan.absent[j]) continue;
      if (plan.verdict[j] === FOREIGN ? foreign >= 0 : other >= 0) continue;
      if (SHOT_FACTS[plan.rows[j]!]!.locate(shot) === null) continue;
      if (plan.verdict[j] === FOREIGN) foreign = plan.rows[j]!;
      else other = plan.rows[j]!;
    }
  }
  if (foreign >= 0) {
    const row = SHOT_FACTS[foreign]!;
    throw refusal('foreign-fact', row.locate(shot)!, row.kinds[d].length === 0 ? (row.foreign ?? `not a ${DISCIPLINE_WORDS[d]} fact`) : row.optionOff!);
  }
  if (kind === 'push-out') checkPushOut(setup, c);
  if (other >= 0) {
    const row = SHOT_FACTS[other]!;
    throw refusal('not-for-this-shot', row.locate(shot)!, `${row.elsewhere ?? 'not part of this kind of shot'}; this is ${KIND_WORDS[kind]}`);
  }
  for (let i = 0; i < CONTRADICTIONS.length; i++) {
    if ((fields & CONTRADICTION_BITS[i]!) === 0) continue;
    const conflict = CONTRADICTIONS[i]!.find(shot, kind);
    if (conflict) throw refusal('inconsistent-shot', conflict.field, conflict.why);
  }
  return kind;
}

/** Refuse a Rotation push out the rules do not allow now. @throws RulesError `push-out-not-allowed`. */
function checkPushOut(setup: MatchSetup, c: Core): void {
  if (setup.discipline !== 'rotation' || (setup.options.pushOut && c.pushOutAvailable)) return;
  const why = !setup.options.pushOut
    ? 'push outs are off for this match'
    : c.breakShot
      ? 'the break cannot be a push out'
      : 'a push out is allowed only on the shot right after the break';
  throw new RulesError('push-out-not-allowed', `step.shot.pushOut: ${why} (ROT §08, R-10)`, 'step.shot.pushOut');
}

/** The contradictions that rules version 1 refused already (as checks of the shot reader). */
const VERSION_1_CONTRADICTIONS: ReadonlySet<string> = new Set(['ball-listed-twice', 'made-call-not-pocketed', 'made-call-nothing-pocketed']);

/**
 * The shot refusals rules version 1 had, for the replay of a log recorded under it (shared/rules/version.ts):
 * in place of `checkShot`, whose D-30 refusals such a log never went through. Refuses a push out in 14-1 or one
 * Rotation does not allow now (`push-out-not-allowed`, R-10), Rotation balls given as a count or a called ball
 * without its number (`invalid-step`), balls listed twice and a "made" call the pocketed balls contradict
 * (`inconsistent-shot`): version 1 never accepted those, so a log holding one is corrupt.
 * @throws RulesError naming `step.shot.<field>`.
 */
export function checkVersion1Shot(setup: MatchSetup, c: Core, shot: Shot): void {
  if (shot.pushOut) {
    if (setup.discipline === '14-1')
      throw new RulesError('push-out-not-allowed', 'step.shot.pushOut: a push out is a Rotation rule; 14-1 has none', 'step.shot.pushOut');
    checkPushOut(setup, c);
  }
  if (setup.discipline === 'rotation') {
    if (typeof shot.pocketed === 'number') throw new RulesError('invalid-step', 'step.shot.pocketed: Rotation names the pocketed balls', 'step.shot.pocketed');
    const call = objectCall(shot);
    if (call && call.ball === undefined && setup.options.callShot && !c.breakShot)
      throw new RulesError('invalid-step', 'step.shot.call.ball: Rotation names the called ball', 'step.shot.call.ball');
  }
  const kind: ShotKind = setup.discipline === 'rotation' && shot.pushOut ? 'push-out' : c.breakShot ? 'break' : 'shot';
  for (const x of CONTRADICTIONS) {
    const conflict = VERSION_1_CONTRADICTIONS.has(x.id) ? x.find(shot, kind) : null;
    if (conflict) throw refusal('inconsistent-shot', conflict.field, conflict.why);
  }
}

/**
 * After the shot is decided: the facts that fit one outcome only (D-30).
 * - 14-1 `rackArea` only on a scoring shot that leaves the break ball or no ball (S-16–S-18); when it leaves no
 *   ball, only `rackArea.cueBall` (S-18: the break ball was pocketed, nothing goes to the head spot).
 * - Rotation `cueBallInKitchen` only on a legal shot that pockets the last ball.
 * @param before the state the shot was taken in; @param after the decided state; @param pocketedCount balls
 * the report says dropped (14-1 counts included). Callers may skip it for a report without `rackArea` or
 * `cueBallInKitchen`. @throws RulesError; the caller then keeps `before`.
 */
export function checkOutcomeFacts(setup: MatchSetup, before: Core, after: Core, shot: Shot, pocketedCount: number): void {
  const i = before.turn === 'A' ? 0 : 1;
  const scored = after.score[i] > before.score[i];
  if (setup.discipline === '14-1' && shot.rackArea) {
    const left = before.count - pocketedCount;
    if (!scored || left > 1) {
      const why = !scored ? 'this shot does not score (balls dropped on it are spotted)' : `this shot leaves ${left} balls on the table`;
      throw refusal('not-for-this-shot', 'rackArea', `the rack area is reported only when a scoring shot leaves the break ball or no ball (S-16–S-18); ${why}`);
    }
    if (left === 0) {
      const a = shot.rackArea;
      const noBreakBall = 'the shot pocketed the 14th and the break ball together, so no break ball is left to place (S-18)';
      if (a.breakBall) throw refusal('inconsistent-shot', 'rackArea.breakBall', noBreakBall);
      if (a.breakBallInKitchen) throw refusal('inconsistent-shot', 'rackArea.breakBallInKitchen', noBreakBall);
      if (a.headSpotTaken)
        throw refusal(
          'not-for-this-shot',
          'rackArea.headSpotTaken',
          'after a 15-ball re-rack (S-18) no ball is placed on the head spot, so whether it is taken does not arise',
        );
    }
  }
  if (setup.discipline === 'rotation' && shot.cueBallInKitchen !== undefined) {
    const table = before.table ?? [];
    const pocketed = Array.isArray(shot.pocketed) ? shot.pocketed : [];
    if (!scored || !table.every((b) => pocketed.includes(b))) {
      throw refusal(
        'not-for-this-shot',
        'cueBallInKitchen',
        'whether the cue ball stopped behind the head string is reported only on a legal shot that pockets the last ball (R-11)',
      );
    }
  }
}

/** Step kinds each discipline has (stalemate S-20 and the two-foul warning S-15 are 14-1 rules). */
const STEP_KINDS: Record<Discipline, readonly string[]> = {
  '14-1': ['shot', 'choice', 'undo', 'stalemate', 'warning'],
  rotation: ['shot', 'choice', 'undo'],
};

const CHOICE_SOURCE: Record<string, string> = {
  rebreak: 'the 14-1 answer to a breaking foul (S-9)',
  shoot: 'the Rotation answer to a push out (R-10)',
  pass: 'the Rotation answer to a push out (R-10)',
};

/** The choice words of discipline `d` as a refusal names them (`"accept", "rebreak" or "rerack"`). */
function choiceWordsOf(d: Discipline): string {
  const quoted = disciplineChoiceWords(d).map((w) => `"${w}"`);
  return d === 'rotation' ? `${quoted.join(', ')} or a foul placement` : `${quoted.slice(0, -1).join(', ')} or ${quoted.at(-1)}`;
}

/**
 * Refuse a step kind or a choice of the other discipline (`foreign-fact`), whatever is pending.
 * @throws RulesError naming `step.<kind>` or `step.choice`.
 */
export function checkStepVocabulary(setup: MatchSetup, step: Step): void {
  if ('shot' in step) return; // every discipline has shots; their facts are checked by checkShot
  const d = setup.discipline;
  const kind = Object.keys(step)[0]!;
  if (!STEP_KINDS[d].includes(kind)) {
    const what =
      kind === 'stalemate'
        ? 'a stalemate re-rack is a 14-1 rule (S-20)'
        : kind === 'warning'
          ? 'the two-foul warning is a 14-1 option (S-15)'
          : 'not a step of this discipline';
    throw new RulesError('foreign-fact', `step.${kind}: ${what}; ${DISCIPLINE_WORDS[d]} has none`, `step.${kind}`);
  }
  if (!('choice' in step)) return;
  const choice: Choice = step.choice;
  if (typeof choice === 'object' && d === '14-1') {
    throw new RulesError('foreign-fact', `step.choice: a foul placement is a Rotation choice (R-8); 14-1 choices are ${choiceWordsOf(d)}`, 'step.choice');
  }
  if (typeof choice === 'string' && !(disciplineChoiceWords(d) as readonly string[]).includes(choice)) {
    throw new RulesError(
      'foreign-fact',
      `step.choice: "${choice}" is ${CHOICE_SOURCE[choice] ?? 'not a choice of this discipline'}; ${DISCIPLINE_WORDS[d]} choices are ${choiceWordsOf(d)}`,
      'step.choice',
    );
  }
}
