/**
 * A stored log is not judged again by refusals newer than its match's rules version (shared/rules/version.ts):
 * - given a log recorded under rules version 1 holding a step that version 2's D-30 input checks refuse
 *   (`rail: false` with balls pocketed, a fact of the other discipline, of another kind of shot, a fact that
 *   fits another outcome), when it is replayed as version 1, then it loads with that step's transition and the
 *   match goes on; replayed as version 2 it does not replay (the step names its place in the log);
 * - a new step is always judged by the current rules, in a version-1 match too;
 * - property: for random reports in random match states, a step taken as version 1 is refused only with the
 *   refusals version 1 had (never a D-30 code), and whatever version 2 accepts, version 1 takes the same way.
 * (Checked once against the version-1 engine itself, commit 43fc5b2^: 17,472 random reports, same acceptance
 * and the same state but for D-31's `rackPlacement`.)
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { applyStep, replay, RULES_VERSION, type Step, view } from '../../shared/index';
import { parseSetup } from '../../server/protocol/setup-schemas';
import { parseStep } from '../../server/protocol/step-schemas';
import { inputChecked, INPUT_CHECKS_SINCE } from '../../shared/rules/version';
import { plausibleStep, seededRandom } from '../../shared/simulate';
import { playedTo, reportsInPlay } from '../helpers/arbitraries';
import { fresh141, freshRot } from '../helpers/given';
import { fcRuns } from '../helpers/fc-runs';

/** D-30 codes: refusals of input that rules version 1 did not have. */
const D30_CODES = ['foreign-fact', 'not-for-this-shot'];

const BREAK_141: Step = { shot: { call: 'safety', breakRails: { objectBalls: 2, cueBall: true } } };
const BREAK_ROT: Step = { shot: { breakRails: { objectBalls: 4 } } };

/** Logs of version-1 matches each holding one step version 2 refuses (D-30), and the field it names. */
const OLD_LOGS: { name: string; setup: Record<string, unknown>; steps: unknown[]; field: string; code: string }[] = [
  {
    name: 'rail: false with balls pocketed (a contradiction)',
    setup: fresh141,
    steps: [BREAK_141, { shot: { call: { ball: 3 }, pocketed: [3], rail: false } }],
    field: 'step.shot.rail',
    code: 'inconsistent-shot',
  },
  {
    name: 'cueBallInKitchen in 14-1 (the other discipline)',
    setup: { ...fresh141, start: { ballsOnTable: 9 } },
    steps: [{ shot: { call: { made: true }, cueBallInKitchen: true } }],
    field: 'step.shot.cueBallInKitchen',
    code: 'foreign-fact',
  },
  {
    name: 'rackArea in Rotation (the other discipline)',
    setup: freshRot,
    steps: [BREAK_ROT, { shot: { firstContact: 1, pocketed: [1], rackArea: { cueBall: false } } }],
    field: 'step.shot.rackArea',
    code: 'foreign-fact',
  },
  {
    name: 'a called Rotation break (another kind of shot)',
    setup: { ...freshRot, options: { callShot: true } },
    steps: [{ shot: { call: 'safety' } }],
    field: 'step.shot.call',
    code: 'not-for-this-shot',
  },
  {
    name: 'breakRails on an ordinary 14-1 shot (another kind of shot)',
    setup: fresh141,
    steps: [BREAK_141, { shot: { call: 'safety', breakRails: { objectBalls: 2, cueBall: true } } }],
    field: 'step.shot.breakRails',
    code: 'not-for-this-shot',
  },
  {
    name: 'the rack area on a 14-1 shot that leaves 4 balls (a fact of another outcome)',
    setup: { ...fresh141, start: { ballsOnTable: 5 } },
    steps: [{ shot: { call: { made: true }, rackArea: { cueBall: true } } }],
    field: 'step.shot.rackArea',
    code: 'not-for-this-shot',
  },
];

describe('rules version of a stored log', () => {
  it('version 1 logs are taken without the D-30 input checks; version 2 and later with them', () => {
    expect(INPUT_CHECKS_SINCE).toBe(2);
    expect(RULES_VERSION).toBeGreaterThanOrEqual(INPUT_CHECKS_SINCE);
    expect([1, 2, 3].map(inputChecked)).toEqual([false, true, true]);
  });

  it.each(OLD_LOGS)('$name: loads as version 1 and goes on; as version 2 it does not replay', ({ setup, steps, field, code }) => {
    const s = parseSetup({ players: ['A', 'B'], ...setup });
    const log = steps.map((x) => parseStep(x));
    const last = log.length - 1;
    // Version 2: the log does not replay; the refusal names the step's place in the log.
    let refused: { code: string; field?: string; message: string } | null = null;
    try {
      replay(s, log);
    } catch (e) {
      refused = e as { code: string; field?: string; message: string };
    }
    expect(refused).toMatchObject({ code, field: `steps.${last}` });
    expect(refused!.message).toContain(`log step ${last}: ${field}`);
    // Version 1: it loads, and the step did what version 1 made of it: the same as applying it as a stored step.
    const m = replay(s, log, 1);
    expect(m.depth).toBe(log.length);
    const before = replay(s, log.slice(0, last), 1);
    const once = applyStep(before, log[last]!, 1);
    expect(once.ok && view(once.match)).toEqual(view(m));
    // A new step is judged by the current rules, in this match too: the same report recorded now is refused…
    const now = applyStep(before, log[last]!);
    expect(now.ok ? null : now.error).toMatchObject({ code, field });
    // …and the match goes on: a legal step after the old one, or an undo of it.
    const next = applyStep(m, plausibleStep(m, seededRandom(7)));
    expect(next.ok && next.match.depth).toBe(log.length + 1);
    const undone = applyStep(m, { undo: true });
    expect(undone.ok && view(undone.match)).toEqual(view(before));
  });

  it('version 1 still refuses what version 1 refused: a 14-1 push out, Rotation balls as a count, balls listed twice', () => {
    const straight = parseSetup({ players: ['A', 'B'], ...fresh141 });
    const rotation = parseSetup({ players: ['A', 'B'], ...freshRot });
    for (const [s, steps, code] of [
      [straight, [{ shot: { call: 'safety', pushOut: true } }], 'push-out-not-allowed'],
      [rotation, [BREAK_ROT, { shot: { firstContact: 1, pocketed: 2 } }], 'invalid-step'],
      [rotation, [BREAK_ROT, { shot: { firstContact: 1, pocketed: [1, 1] } }], 'inconsistent-shot'],
      [rotation, [BREAK_ROT, { shot: { firstContact: 1, pocketed: [16] } }], 'ball-not-on-table'],
    ] as const) {
      expect(() =>
        replay(
          s,
          steps.map((x) => x as Step),
          1,
        ),
      ).toThrow(expect.objectContaining({ code }));
    }
  });

  it('property: taken as version 1, a report is refused only as version 1 refused, and what version 2 accepts goes the same way', () => {
    const seen = { both: 0, onlyOld: 0, refused: 0 };
    fc.assert(
      fc.property(reportsInPlay, ([input, seed, length, shot]) => {
        const m = playedTo(input, seed, length);
        const now = applyStep(m, { shot });
        const old = applyStep(m, { shot }, 1);
        if (!old.ok) {
          seen.refused++;
          expect(D30_CODES).not.toContain(old.error.code);
          expect(now.ok).toBe(false);
          return;
        }
        if (now.ok) {
          seen.both++;
          expect(view(old.match)).toEqual(view(now.match));
        } else {
          seen.onlyOld++;
          expect([...D30_CODES, 'inconsistent-shot']).toContain(now.error.code);
        }
      }),
      { numRuns: fcRuns(1500) },
    );
    expect(seen.both).toBeGreaterThan(100);
    expect(seen.onlyOld).toBeGreaterThan(100);
    expect(seen.refused).toBeGreaterThan(50);
  });
});
