/**
 * D-30 refusals, generated from the allowed-fields table (shared/rules/shot-checks.ts): every fact of the step
 * vocabulary × both disciplines × every kind of shot; every contradiction; the outcome-only facts; the choices
 * and step kinds of the other discipline. Each refusal names the exact field and leaves the match untouched.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { applyStep, type Discipline, OTHER_FOULS, type Match, type Shot, view } from '../../shared/index';
import { shotSchema, callSchema, rackAreaSchema } from '../../server/protocol/step-schemas';
import { CHOICE_WORDS, disciplineChoiceWords, WORD_DECISIONS } from '../../shared/rules/choice-words';
import { checkShot, CONTRADICTIONS, SHOT_FACTS, type ShotFactRule, type ShotKind } from '../../shared/rules/shot-checks';
import { playedTo, reportsInPlay } from '../helpers/arbitraries';
import { accept, expectState, fresh141, freshRot, given, refuse } from '../helpers/given';
import { fcRuns } from '../helpers/fc-runs';

const ALL = Array.from({ length: 15 }, (_, i) => i + 1);

/**
 * The table as the rules place each fact (docs/case-format.md `shot`, docs/rules.md §3.1, §4.1, D-12, D-30): the kinds of
 * shot per discipline, "—" where the discipline does not have the fact. Written out by hand so a change to
 * the engine's table is a deliberate change to this spec.
 */
const SPEC: Record<string, { '14-1': string; rotation: string }> = {
  'call:none': { '14-1': '—', rotation: 'break shot push-out' },
  call: { '14-1': 'break shot', rotation: 'shot +callShot' },
  'call:count-only': { '14-1': 'break shot', rotation: '—' },
  pocketed: { '14-1': 'break shot', rotation: 'break shot push-out' },
  'pocketed:count': { '14-1': 'break shot', rotation: '—' },
  offTable: { '14-1': 'break shot', rotation: 'break shot push-out' },
  firstContact: { '14-1': 'break shot', rotation: 'break shot push-out' },
  rail: { '14-1': 'shot', rotation: 'shot push-out' },
  breakRails: { '14-1': 'break', rotation: 'break' },
  'breakRails.cueBall': { '14-1': 'break', rotation: '—' },
  cueBall: { '14-1': 'break shot', rotation: 'break shot push-out' },
  fouls: { '14-1': 'break shot', rotation: 'break shot push-out' },
  'fouls:touched-ball': { '14-1': 'break shot', rotation: 'break shot push-out' },
  'fouls:double-hit': { '14-1': 'break shot', rotation: 'break shot push-out' },
  'fouls:feet-off-floor': { '14-1': 'break shot', rotation: 'break shot' },
  'fouls:push-shot': { '14-1': 'break shot', rotation: 'break shot' },
  'fouls:balls-moving': { '14-1': 'break shot', rotation: 'break shot' },
  'fouls:bad-cue-ball-placement': { '14-1': 'break shot', rotation: 'break shot' },
  'fouls:cue-on-table': { '14-1': 'break shot', rotation: 'break shot' },
  'fouls:slow-play': { '14-1': 'break shot', rotation: 'break shot' },
  'fouls:time': { '14-1': 'shot', rotation: 'shot' },
  pushOut: { '14-1': '—', rotation: 'break shot push-out' },
  cueBallInKitchen: { '14-1': '—', rotation: 'break shot' },
  rackArea: { '14-1': 'break shot', rotation: '—' },
};

/** One sample report per row, made from the kind's plain report (tests below check every row has one). */
const SAMPLES: Record<string, (s: Shot) => Shot> = {
  'call:none': ({ call: _call, ...rest }) => rest,
  call: (s) => ({ ...s, call: { ball: 2 } }),
  'call:count-only': (s) => ({ ...s, call: { made: false } }),
  pocketed: (s) => ({ ...s, pocketed: [2] }),
  'pocketed:count': (s) => ({ ...s, pocketed: 1 }),
  offTable: (s) => ({ ...s, offTable: [3] }),
  firstContact: (s) => ({ ...s, firstContact: 1 }),
  rail: (s) => ({ ...s, rail: true }),
  breakRails: (s) => ({ ...s, breakRails: { objectBalls: 4 } }),
  'breakRails.cueBall': (s) => ({ ...s, breakRails: { objectBalls: 4, cueBall: true } }),
  cueBall: (s) => ({ ...s, cueBall: 'scratch' }),
  fouls: (s) => ({ ...s, fouls: [] }),
  ...Object.fromEntries(OTHER_FOULS.map((f) => [`fouls:${f}`, (s: Shot): Shot => ({ ...s, fouls: [f] })])),
  // A time foul is recorded alone (D-32); with a push out it stays a push-out report.
  'fouls:time': (s) => ({ ...(s.pushOut ? { pushOut: s.pushOut } : {}), fouls: ['time'] }),
  pushOut: (s) => ({ ...s, pushOut: s.pushOut ?? false }),
  cueBallInKitchen: (s) => ({ ...s, cueBallInKitchen: false }),
  rackArea: (s) => ({ ...s, rackArea: {} }),
};

/** A match where the next shot is of `kind`, and a plain legal report of that kind. */
interface Situation {
  discipline: Discipline;
  kind: ShotKind;
  callShot: boolean;
  match: () => Match;
  plain: Shot;
}
const SITUATIONS: Situation[] = [
  { discipline: '14-1', kind: 'break', callShot: false, match: () => given(fresh141), plain: { call: 'safety' } },
  { discipline: '14-1', kind: 'shot', callShot: false, match: () => given({ ...fresh141, start: { ballsOnTable: 15 } }), plain: { call: 'safety' } },
  ...[false, true].flatMap((callShot): Situation[] => {
    const rot = { ...freshRot, options: { callShot } };
    return [
      { discipline: 'rotation', kind: 'break', callShot, match: () => given(rot), plain: {} },
      { discipline: 'rotation', kind: 'shot', callShot, match: () => given({ ...rot, start: { onTable: ALL } }), plain: {} },
      { discipline: 'rotation', kind: 'push-out', callShot, match: () => given(rot, [{ shot: { pocketed: [5] } }]), plain: { pushOut: true } },
    ];
  }),
];

const name = (s: Situation) => `${s.discipline}${s.discipline === 'rotation' ? (s.callShot ? ' (call shot)' : ' (no call shot)') : ''} ${s.kind}`;

/** The verdict the table gives one present row: a fact of the other discipline or an option that is off, of another kind of shot, or none. */
function verdict(row: ShotFactRule, s: Situation): 'foreign-fact' | 'not-for-this-shot' | null {
  const kinds = row.kinds[s.discipline];
  if (kinds.length === 0 || (row.option === 'callShot' && s.discipline === 'rotation' && !s.callShot)) return 'foreign-fact';
  return kinds.includes(s.kind) ? null : 'not-for-this-shot';
}

/** The table's refusal for a whole report: a foreign fact first, else a fact of another kind of shot (rows in table order). */
function expectedRefusal(shot: Shot, s: Situation): { code: string; field: string } | null {
  const present = SHOT_FACTS.flatMap((row) => {
    const field = row.locate(shot);
    return field === null ? [] : [{ field, v: verdict(row, s) }];
  });
  const hit = present.find((p) => p.v === 'foreign-fact') ?? present.find((p) => p.v === 'not-for-this-shot');
  return hit ? { code: hit.v!, field: `step.shot.${hit.field}` } : null;
}

describe('the allowed-fields table', () => {
  it('is the table the rules give (docs/case-format.md shot × discipline × kind of shot)', () => {
    const render = (row: ShotFactRule, d: Discipline) => {
      const kinds = row.kinds[d];
      if (kinds.length === 0) return '—';
      return kinds.join(' ') + (row.option && d === 'rotation' ? ` +${row.option}` : '');
    };
    const actual = Object.fromEntries(SHOT_FACTS.map((row) => [row.id, { '14-1': render(row, '14-1'), rotation: render(row, 'rotation') }]));
    expect(actual).toEqual(SPEC);
  });

  it('covers every field of the step vocabulary, so a new field cannot be forgotten', () => {
    const unwrap = (t: z.ZodType): z.ZodType => (t instanceof z.ZodOptional ? unwrap(t.unwrap() as z.ZodType) : t);
    const paths: string[] = [];
    for (const [key, t] of Object.entries(shotSchema.shape)) {
      paths.push(key);
      const inner = unwrap(t as z.ZodType);
      if (inner instanceof z.ZodObject) paths.push(...Object.keys(inner.shape).map((k) => `${key}.${k}`));
    }
    const callObject = callSchema.options.find((o) => o instanceof z.ZodObject) as z.ZodObject;
    paths.push(...Object.keys(callObject.shape).map((k) => `call.${k}`));
    expect(Object.keys(rackAreaSchema.shape).every((k) => paths.includes(`rackArea.${k}`))).toBe(true);
    // Every row has a sample; the fields the samples reach (numbers dropped) cover every path or its parent.
    expect(Object.keys(SAMPLES).sort()).toEqual(SHOT_FACTS.map((r) => r.id).sort());
    const located = new Set(
      SHOT_FACTS.map((row) => {
        const s = SITUATIONS.find((x) => x.discipline === '14-1')!;
        const field = row.locate(SAMPLES[row.id]!(s.plain)) ?? row.locate(SAMPLES[row.id]!({}))!;
        return field.replace(/\.\d+$/, '');
      }),
    );
    const uncovered = paths.filter((p) => !located.has(p) && !located.has(p.split('.')[0]!));
    expect(uncovered).toEqual([]);
  });

  it('says why for every fact a discipline does not have', () => {
    for (const row of SHOT_FACTS) {
      for (const d of ['14-1', 'rotation'] as const) if (row.kinds[d].length === 0) expect(row.foreign, row.id).toBeTruthy();
      if (row.option) expect(row.optionOff, row.id).toBeTruthy();
      const some = [...row.kinds['14-1'], ...row.kinds.rotation];
      if (some.length > 0 && some.length < 5) expect(row.elsewhere ?? row.foreign, row.id).toBeTruthy();
    }
  });
});

describe.each(SITUATIONS)('every fact in a $discipline $kind report', (s) => {
  it.each(SHOT_FACTS.map((r) => [r.id, r] as const))(`${name(s)}: %s`, (_id, row) => {
    const shot = SAMPLES[row.id]!(s.plain);
    const m = s.match();
    const want = expectedRefusal(shot, s);
    if (want) {
      // Refused with the named field; the state is untouched (refuse() compares the view before and after).
      const e = refuse(m, { shot });
      expect({ code: e.code, field: e.field }).toEqual(want);
      expect(e.message.startsWith(`${want.field}: `)).toBe(true);
      expect(e.message.length).toBeGreaterThan(want.field.length + 20);
    } else {
      // Allowed where it is: the report check passes (outcome-only facts are checked after the decision, below).
      expect(() => checkShot(m.setup, m.core, shot)).not.toThrow();
      if (row.id !== 'rackArea' && row.id !== 'cueBallInKitchen') accept(m, { shot });
    }
  });
});

/** One example per contradiction: the report, the field it must name, and the same report without the conflict (accepted). */
const CONTRADICTION_EXAMPLES: Record<string, { setup: Record<string, unknown>; steps?: unknown[]; shot: Shot; field: string; fixed: Shot }> = {
  'time-foul-with-other-facts': {
    setup: { ...fresh141, start: { ballsOnTable: 9 } },
    shot: { call: 'safety', fouls: ['time'] },
    field: 'step.shot.call',
    fixed: { fouls: ['time'] },
  },
  'ball-listed-twice': { setup: freshRot, shot: { pocketed: [3, 3] }, field: 'step.shot.pocketed.1', fixed: { pocketed: [3] } },
  'foul-listed-twice': {
    setup: fresh141,
    shot: { call: 'safety', fouls: ['double-hit', 'double-hit'] },
    field: 'step.shot.fouls.1',
    fixed: { call: 'safety', fouls: ['double-hit'] },
  },
  'made-call-not-pocketed': {
    setup: fresh141,
    shot: { call: { ball: 3, made: true }, pocketed: [4] },
    field: 'step.shot.call.made',
    fixed: { call: { ball: 3, made: false }, pocketed: [4] },
  },
  'made-call-nothing-pocketed': {
    setup: fresh141,
    shot: { call: { made: true }, pocketed: 0 },
    field: 'step.shot.call.made',
    fixed: { call: { made: true }, pocketed: 1 },
  },
  'no-contact-balls-moved': {
    setup: freshRot,
    steps: [{ shot: { pocketed: [5] } }],
    shot: { firstContact: null, pocketed: [2] },
    field: 'step.shot.firstContact',
    fixed: { firstContact: null, pocketed: [2], fouls: ['touched-ball'] },
  },
  'no-rail-but-pocketed': {
    setup: { ...fresh141, start: { ballsOnTable: 9 } },
    shot: { call: 'safety', rail: false, pocketed: [4] },
    field: 'step.shot.rail',
    fixed: { call: 'safety', rail: false },
  },
  'cue-ball-gone-but-in-rack-area': {
    setup: { ...fresh141, start: { ballsOnTable: 2 } },
    shot: { call: { made: true }, cueBall: 'scratch', rackArea: { cueBall: true } },
    field: 'step.shot.rackArea.cueBall',
    fixed: { call: { made: true }, rackArea: { cueBall: true } },
  },
  'cue-ball-gone-but-in-kitchen': {
    setup: { ...freshRot, start: { onTable: [15] } },
    shot: { firstContact: 15, pocketed: [15], cueBall: 'scratch', cueBallInKitchen: true },
    field: 'step.shot.cueBallInKitchen',
    fixed: { firstContact: 15, pocketed: [15], cueBallInKitchen: true },
  },
  'break-ball-in-two-places': {
    setup: { ...fresh141, start: { ballsOnTable: 2 } },
    shot: { call: { made: true }, rackArea: { cueBall: true, breakBall: true, breakBallInKitchen: true } },
    field: 'step.shot.rackArea.breakBallInKitchen',
    fixed: { call: { made: true }, rackArea: { cueBall: true, breakBall: true } },
  },
  'head-spot-with-both-in-rack-area': {
    setup: { ...fresh141, start: { ballsOnTable: 2 } },
    shot: { call: { made: true }, rackArea: { cueBall: true, breakBall: true, headSpotTaken: true } },
    field: 'step.shot.rackArea.headSpotTaken',
    fixed: { call: { made: true }, rackArea: { cueBall: true, headSpotTaken: true } },
  },
};

describe('facts of one shot that contradict each other', () => {
  it('every contradiction has an example', () => {
    expect(Object.keys(CONTRADICTION_EXAMPLES).sort()).toEqual(CONTRADICTIONS.map((c) => c.id).sort());
  });

  it.each(Object.entries(CONTRADICTION_EXAMPLES))('%s: refused naming the field; without the conflict it is accepted', (_id, ex) => {
    const m = given(ex.setup, ex.steps ?? []);
    const e = refuse(m, { shot: ex.shot });
    expect({ code: e.code, field: e.field }).toEqual({ code: 'inconsistent-shot', field: ex.field });
    accept(m, { shot: ex.fixed });
  });

  it('a ball both pocketed and off the table, or twice off the table, names the second listing', () => {
    const m = given(freshRot);
    expect(refuse(m, { shot: { pocketed: [3], offTable: [3] } }).field).toBe('step.shot.offTable.0');
    expect(refuse(m, { shot: { offTable: [4, 4] } }).field).toBe('step.shot.offTable.1');
  });

  it('no contact yet balls moved: a made call without a list, a ball off the table, cushions on a break', () => {
    const m = given({ ...fresh141, start: { ballsOnTable: 9 } });
    expect(refuse(m, { shot: { call: { made: true }, firstContact: null } }).field).toBe('step.shot.firstContact');
    expect(refuse(m, { shot: { call: 'safety', firstContact: null, offTable: [4] } }).field).toBe('step.shot.firstContact');
    expect(refuse(given(fresh141), { shot: { call: 'safety', firstContact: null, breakRails: { objectBalls: 2, cueBall: true } } }).field).toBe(
      'step.shot.breakRails.objectBalls',
    );
    expect(refuse(given(freshRot), { shot: { firstContact: null, breakRails: { objectBalls: 5 } } }).field).toBe('step.shot.breakRails.objectBalls');
    // A report of the foul that moved the balls explains them.
    expectState(accept(m, { shot: { call: 'safety', firstContact: null, offTable: [4], fouls: ['balls-moving'] } }), { score: [-1, 0], turn: 'B' });
  });

  it('the break ball both in the rack area and behind the head string (the issue’s report) leaves the match untouched', () => {
    const m = given({ ...fresh141, start: { score: [30, 25], ballsOnTable: 2, rack: 4 } });
    const e = refuse(m, { shot: { call: { made: true }, rackArea: { breakBall: true, breakBallInKitchen: true } } });
    expect(e.message).toMatch(/^step\.shot\.rackArea\.breakBallInKitchen: the break ball cannot lie both/);
    expectState(m, { score: [30, 25], rack: 4, ballsOnTable: 2, rackPlacement: null });
  });
});

describe('facts that fit one outcome only', () => {
  const at = (left: number) => ({ ...fresh141, start: { score: [30, 25], ballsOnTable: left + 1 } });
  it('14-1 rackArea only on a scoring shot that leaves the break ball or no ball (S-16–S-18)', () => {
    const cases: [Record<string, unknown>, Shot, string][] = [
      [at(4), { call: { made: true }, rackArea: { cueBall: true } }, 'leaves 4 balls'],
      [at(1), { call: { made: false }, pocketed: 1, rackArea: { cueBall: true } }, 'does not score'],
      [at(1), { call: { made: true }, cueBall: 'scratch', rackArea: {} }, 'does not score'],
      [at(1), { call: 'safety', rackArea: {} }, 'does not score'],
      [fresh141, { call: 'safety', breakRails: { objectBalls: 3 }, rackArea: {} }, 'does not score'],
    ];
    for (const [setup, shot, why] of cases) {
      const e = refuse(given(setup), { shot });
      expect([e.code, e.field]).toEqual(['not-for-this-shot', 'step.shot.rackArea']);
      expect(e.message).toContain(why);
    }
    expectState(given(at(1), [{ shot: { call: { made: true }, rackArea: { breakBall: true } } }]), {
      rackPlacement: { cueBall: 'as-is', breakBall: 'head-spot', racked: 14 },
    });
    // The winning shot may leave the break ball: the facts fit, no re-rack follows (S-21).
    expectState(given({ ...at(1), targets: [31, 100] }, [{ shot: { call: { made: true }, rackArea: { cueBall: true } } }]), {
      winner: 'A',
      rackPlacement: null,
    });
  });

  it('14-1: when the 14th and the break ball drop together only rackArea.cueBall fits (S-18)', () => {
    const m = given({ ...fresh141, start: { score: [30, 25], ballsOnTable: 2 } });
    const shot = (rackArea: Record<string, boolean>): Shot => ({ call: { made: true }, pocketed: 2, rackArea });
    const e = refuse(m, { shot: shot({ breakBall: true }) });
    expect([e.code, e.field]).toEqual(['inconsistent-shot', 'step.shot.rackArea.breakBall']);
    expect(refuse(m, { shot: shot({ breakBallInKitchen: true }) }).field).toBe('step.shot.rackArea.breakBallInKitchen');
    expect(refuse(m, { shot: shot({ headSpotTaken: true }) }).code).toBe('not-for-this-shot');
    expectState(accept(m, { shot: shot({ cueBall: true, breakBall: false }) }), {
      rackPlacement: { cueBall: 'kitchen', breakBall: 'racked', racked: 15 },
      ballInHand: 'kitchen',
    });
  });

  it('Rotation cueBallInKitchen only on a legal shot that pockets the last ball (R-11)', () => {
    const mid = (onTable: number[], options = {}) => ({ ...freshRot, options, start: { score: [50, 40], onTable } });
    for (const [setup, shot] of [
      [mid([14, 15]), { firstContact: 14, pocketed: [14], cueBallInKitchen: true }],
      [mid([15]), { firstContact: 15, cueBallInKitchen: false }],
      [mid([15]), { firstContact: 15, pocketed: [15], fouls: ['double-hit'], cueBallInKitchen: true }],
      [mid([15], { callShot: true }), { firstContact: 15, pocketed: [15], call: 'safety', cueBallInKitchen: true }],
    ] as [Record<string, unknown>, Shot][]) {
      const e = refuse(given(setup), { shot });
      expect([e.code, e.field]).toEqual(['not-for-this-shot', 'step.shot.cueBallInKitchen']);
    }
    expectState(given(mid([15]), [{ shot: { firstContact: 15, pocketed: [15], cueBallInKitchen: true } }]), { turn: 'A', rack: 2, breakShot: true });
    // The last ball that also wins the match: the fact fits the shot even though no next break follows.
    expectState(given({ ...mid([15]), targets: [60, 120] }, [{ shot: { firstContact: 15, pocketed: [15], cueBallInKitchen: false } }]), { winner: 'A' });
  });
});

describe('the shot after a re-rack', () => {
  it('14-1: after a 15-ball re-rack without a break (S-17c, S-18) the next shot is ordinary: breakRails refused (D-12)', () => {
    for (const rackArea of [{ cueBall: true, breakBall: true }, undefined]) {
      const m = given({ ...fresh141, start: { ballsOnTable: 2 } }, [
        { shot: { call: { made: true }, pocketed: rackArea ? 1 : 2, ...(rackArea ? { rackArea } : {}) } },
      ]);
      expectState(m, { breakShot: false, ballsOnTable: 15, rackPlacement: { cueBall: rackArea ? 'kitchen' : 'as-is', breakBall: 'racked', racked: 15 } });
      const e = refuse(m, { shot: { call: 'safety', breakRails: { objectBalls: 2, cueBall: true } } });
      expect([e.code, e.field]).toEqual(['not-for-this-shot', 'step.shot.breakRails']);
      expect(e.message).toMatch(/D-12/);
      accept(m, { shot: { call: 'safety', rail: true } });
    }
  });

  it('14-1: after a re-rack for a break (three fouls, re-break, stalemate) the next shot is a break: rail refused, breakRails taken', () => {
    const m = given({ ...fresh141, start: { ballsOnTable: 9 } }, [{ stalemate: { breaker: 'A' } }]);
    expect(refuse(m, { shot: { call: 'safety', rail: false } }).field).toBe('step.shot.rail');
    expectState(accept(m, { shot: { call: 'safety', breakRails: { objectBalls: 1, cueBall: true } } }), { awaiting: 'break-foul-choice', score: [-2, 0] });
  });

  it('Rotation: after an illegal-break re-rack the next shot is a break (no call, no push out); after the break, no breakRails', () => {
    let m = given({ ...freshRot, options: { callShot: true } }, [{ shot: { breakRails: { objectBalls: 2 } } }, { choice: 'rerack' }]);
    expect(refuse(m, { shot: { call: { ball: 1 }, pocketed: [1] } }).code).toBe('not-for-this-shot');
    expect(refuse(m, { shot: { pushOut: true } }).code).toBe('push-out-not-allowed');
    m = accept(m, { shot: { breakRails: { objectBalls: 5 } } });
    expect(refuse(m, { shot: { firstContact: 1, breakRails: { objectBalls: 5 } } }).field).toBe('step.shot.breakRails');
  });
});

describe('the issue’s reports of the other discipline', () => {
  it('the 14-1 step {"shot":{"call":"safety"}} is not a Rotation break, with or without call shot', () => {
    const off = refuse(given(freshRot), { shot: { call: 'safety' } });
    expect([off.code, off.field]).toEqual(['foreign-fact', 'step.shot.call']);
    const on = refuse(given({ ...freshRot, options: { callShot: true } }), { shot: { call: 'safety' } });
    expect([on.code, on.field]).toEqual(['not-for-this-shot', 'step.shot.call']);
    expect(on.message).toMatch(/never called/);
  });

  it('cueBallInKitchen in 14-1 and rackArea in Rotation are refused, whatever their value', () => {
    const s = given({ ...fresh141, start: { ballsOnTable: 9 } });
    for (const v of [true, false]) expect(refuse(s, { shot: { call: { made: true }, cueBallInKitchen: v } }).field).toBe('step.shot.cueBallInKitchen');
    const r = given({ ...freshRot, start: { onTable: [3, 9] } });
    expect([refuse(r, { shot: { firstContact: 3, pocketed: [3], rackArea: { cueBall: false } } }).code]).toEqual(['foreign-fact']);
  });

  it('a Rotation report in 14-1 (nothing called, balls named by number) is refused instead of scoring as a miss', () => {
    const e = refuse(given({ ...fresh141, start: { ballsOnTable: 15 } }), { shot: { firstContact: 1, pocketed: [3] } });
    expect([e.code, e.field]).toEqual(['foreign-fact', 'step.shot.call']);
  });
});

describe('choices and steps of the other discipline', () => {
  it.each([
    ['14-1', [{ shot: { call: 'safety', breakRails: { objectBalls: 0 } } }], fresh141, ['shoot', 'pass', { cueBall: 'kitchen', lowestBall: 'as-is' }]],
    ['14-1', [], fresh141, ['shoot', 'pass', { cueBall: 'kitchen', lowestBall: 'as-is' }]],
    ['rotation', [{ shot: { breakRails: { objectBalls: 2 } } }], freshRot, ['rebreak']],
    ['rotation', [], freshRot, ['rebreak']],
  ] as const)('%s after %j: the other discipline’s choices are foreign facts, pending choice or not', (_d, steps, setup, choices) => {
    const m = given(setup, [...steps]);
    for (const choice of choices) {
      const e = refuse(m, { choice });
      expect([e.code, e.field]).toEqual(['foreign-fact', 'step.choice']);
    }
  });

  it('stalemate and the two-foul warning are 14-1 steps', () => {
    const m = given(freshRot);
    for (const step of [{ stalemate: { breaker: 'B' } }, { warning: 'A' }]) {
      const e = refuse(m, step);
      expect([e.code, e.field]).toEqual(['foreign-fact', `step.${Object.keys(step)[0]}`]);
    }
  });

  it('a shared choice word that does not answer what is pending stays a wrong choice', () => {
    const m = given(freshRot, [{ shot: { breakRails: { objectBalls: 2 } } }]);
    expect(refuse(m, { choice: 'shoot' }).code).toBe('wrong-choice');
    expect(view(accept(m, { choice: 'rerack' })).breakShot).toBe(true);
  });
});

describe('property: random reports in random match states', () => {
  it('a refusal names a field of the report (or the missing 14-1 call) and changes nothing; an acceptance breaks no row of the table', () => {
    const seen = { accepted: 0, refused: 0 };
    fc.assert(
      fc.property(reportsInPlay, ([input, seed, length, shot]) => {
        const m = playedTo(input, seed, length);
        if (m.core.winner || m.core.awaiting) return;
        const before = JSON.stringify(view(m));
        const r = applyStep(m, { shot });
        expect(JSON.stringify(view(m))).toBe(before);
        const s: Situation = {
          discipline: m.setup.discipline,
          kind: m.setup.discipline === 'rotation' && shot.pushOut ? 'push-out' : m.core.breakShot ? 'break' : 'shot',
          callShot: m.setup.discipline === 'rotation' && m.setup.options.callShot,
          match: () => m,
          plain: {},
        };
        if (!r.ok) {
          seen.refused++;
          const field = r.error.field ?? '';
          expect(field.startsWith('step.shot.'), `${r.error.code} ${r.error.message}`).toBe(true);
          const top = field.split('.')[2]!;
          const missingCall = top === 'call' && shot.call === undefined && s.discipline === '14-1';
          expect(top in shot || missingCall, r.error.message).toBe(true);
          expect(r.error.message.startsWith(`${field}: `)).toBe(true);
        } else {
          seen.accepted++;
          if (s.kind === 'push-out') expect(m.core.pushOutAvailable).toBe(true);
          expect(expectedRefusal(shot, s)).toBeNull();
          for (const c of CONTRADICTIONS) expect(c.find(shot, s.kind), c.id).toBeNull();
        }
      }),
      { numRuns: fcRuns(2000) },
    );
    // Both sides of the property were exercised.
    expect(seen.accepted).toBeGreaterThan(200);
    expect(seen.refused).toBeGreaterThan(200);
  });
});

describe('choice words of each discipline (one table: shared/rules/choice-words.ts)', () => {
  it('each discipline has exactly the words of its own decisions; the other discipline’s words are refused as foreign', () => {
    expect(disciplineChoiceWords('14-1')).toEqual(['accept', 'rebreak', 'rerack']);
    expect(disciplineChoiceWords('rotation')).toEqual(['accept', 'rerack', 'shoot', 'pass']);
    for (const d of ['14-1', 'rotation'] as const) {
      const words = disciplineChoiceWords(d);
      for (const k of WORD_DECISIONS[d]) for (const w of CHOICE_WORDS[k]) expect(words).toContain(w);
      const m = given(d === '14-1' ? fresh141 : freshRot);
      for (const w of (['accept', 'rebreak', 'rerack', 'shoot', 'pass'] as const).filter((x) => !words.includes(x))) {
        const e = refuse(m, { choice: w });
        expect([e.code, e.field], `${d} ${w}`).toEqual(['foreign-fact', 'step.choice']);
        expect(e.message).toContain(
          words
            .map((x) => `"${x}"`)
            .slice(0, 2)
            .join(', '),
        );
      }
    }
  });
});
