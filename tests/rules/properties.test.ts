/**
 * Property tests (fast-check) over thousands of random legal matches of both disciplines:
 * - the sum invariants hold after every step (14-1 INV-1/INV-2, Rotation INV-R1) and INV-3/INV-4/INV-R2;
 * - undo of every step restores the previous state exactly;
 * - replaying the log reproduces the state.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { matchesOf, setupsOf } from '../helpers/arbitraries';
import { applyStep, type Match, newMatch, projectSteps, replay, statsOf, type Step, view } from '../../shared/index';
import { parseSetup } from '../../server/protocol/setup-schemas';
import { coreFromState } from '../../shared/view';
import { plausibleStep, seededRandom } from '../../shared/simulate';
import { fcRuns } from '../helpers/fc-runs';

const setups = setupsOf(['A', 'B']);

/** A random legal match: a set-up, a seed for the step generator, skill, undo rate and length. */
const matches = matchesOf(setups, [0, 0.05, 0.2], 200);

type Run = { setup: ReturnType<typeof parseSetup>; log: Step[]; states: Match[] };

/** Play a random legal match, recording every step; fails if the engine refuses a legal step. */
function play(p: { setup: unknown; seed: number; skill: number; undoRate: number; length: number }): Run {
  const setup = parseSetup(p.setup);
  const rand = seededRandom(p.seed);
  let m = newMatch(setup);
  const log: Step[] = [];
  const states: Match[] = [m];
  for (let i = 0; i < p.length && m.core.winner === null; i++) {
    const step: Step = m.depth > 0 && rand() < p.undoRate ? { undo: true } : plausibleStep(m, rand, p.skill);
    const r = applyStep(m, step);
    if (!r.ok) throw new Error(`legal step refused at ${i}: ${JSON.stringify(step)}: ${r.error.message}`);
    m = r.match;
    log.push(step);
    states.push(m);
  }
  return { setup, log, states };
}

describe('random legal matches', () => {
  it('keep the sum invariants after every step (INV-1, INV-2, INV-R1) and the at-rest bounds (INV-3, INV-4, INV-R2)', () => {
    fc.assert(
      fc.property(matches, (p) => {
        const { setup, states } = play(p);
        let prev: Match | null = null;
        for (const m of states) {
          const check = statsOf(m).check;
          expect(check.ok, JSON.stringify(check)).toBe(true);
          const s = view(m);
          if (setup.discipline === '14-1') {
            if (!setup.options.requireTwoFoulWarning) expect(s.fouls.every((f) => f >= 0 && f <= 2)).toBe(true);
            if (s.winner === null) expect(s.ballsOnTable).toBeGreaterThanOrEqual(2);
            expect(s.ballsOnTable).toBeLessThanOrEqual(15);
          } else if (prev && m.depth > prev.depth) {
            const before = view(prev);
            expect(s.score[0]).toBeGreaterThanOrEqual(before.score[0]);
            expect(s.score[1]).toBeGreaterThanOrEqual(before.score[1]);
          }
          prev = m;
        }
      }),
      { numRuns: fcRuns(1000) },
    );
  });

  it('undo of every step restores the previous state exactly', () => {
    fc.assert(
      fc.property(matches, (p) => {
        const { states, log } = play({ ...p, undoRate: 0 });
        for (let i = 1; i < states.length; i++) {
          const r = applyStep(states[i]!, { undo: true });
          expect(r.ok).toBe(true);
          if (!r.ok) return;
          expect(r.match.core).toEqual(states[i - 1]!.core);
          expect(view(r.match)).toEqual(view(states[i - 1]!));
          // and the same step again gives the same state (no hidden history)
          const again = applyStep(r.match, log[i - 1]!);
          expect(again.ok && again.match.core).toEqual(states[i]!.core);
        }
      }),
      { numRuns: fcRuns(500) },
    );
  });

  it('replaying the log reproduces the state, undo steps included', () => {
    fc.assert(
      fc.property(matches, (p) => {
        const { setup, log, states } = play(p);
        const last = states[states.length - 1]!;
        const replayed = replay(setup, log);
        expect(replayed.core).toEqual(last.core);
        expect(view(replayed)).toEqual(view(last));
        expect(statsOf(replayed)).toEqual(statsOf(last));
      }),
      { numRuns: fcRuns(1000) },
    );
  });

  it('the public state carries the whole engine state: a snapshot plays queued steps forward exactly', () => {
    fc.assert(
      fc.property(matches, fc.integer({ min: 0, max: 1000 }), (p, cut) => {
        const { setup, log, states } = play({ ...p, undoRate: 0 });
        for (const m of states) expect(coreFromState(view(m))).toEqual(m.core);
        // From any snapshot, projecting the rest of the log gives the live match's state.
        const at = cut % states.length;
        const projected = projectSteps(setup, view(states[at]!), log.slice(at));
        expect(projected.error).toBeUndefined();
        expect(projected.state).toEqual(view(states[states.length - 1]!));
      }),
      { numRuns: fcRuns(500) },
    );
  });
});
