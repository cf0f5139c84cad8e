/**
 * Property tests (fast-check) of the incremental statistics over random legal matches of both disciplines
 * with undos (shared/simulate):
 * - after every step, the incremental statistics equal the whole-history pass (tests/helpers/stats-reference.ts);
 * - the delta between any two consecutive versions (a step or an undo), applied to the earlier statistics,
 *   gives the later ones, and carries only the rows that changed;
 * - statistics stored as JSON and read back (the snapshot beside the log), and a match resumed from them,
 *   continue exactly like the match that was never stored; a trimmed undo stack changes nothing but its reach;
 * - a replay, which overwrites the records of the steps an undo took back, keeps every version on its undo stack
 *   as the recorded match has it, and new steps from those versions go on like the recorded match's.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { matchesOf, setupsOf } from '../helpers/arbitraries';
import { applyStatsDelta, applyStep, type Match, newMatch, replay, resumeMatch, statsOf, type Step, trimHistory, undoable, view } from '../../shared/index';
import { parseSetup } from '../../server/protocol/setup-schemas';
import { plausibleStep, seededRandom } from '../../shared/simulate';
import { statsDelta, statsFromStored, storedStats } from '../../shared/stats';
import { referenceStats } from '../helpers/stats-reference';
import { fcRuns } from '../helpers/fc-runs';

const matches = matchesOf(setupsOf(['Ann', 'Bob'], { pickedUp: true }), [0.05, 0.2, 0.4], 250);

/** Every match state of a random legal match with undos (also after the winner: undo continues it). */
function play(p: { setup: unknown; seed: number; skill: number; undoRate: number; length: number }): { states: Match[]; log: Step[] } {
  const rand = seededRandom(p.seed);
  let m = newMatch(parseSetup(p.setup));
  const states = [m];
  const log: Step[] = [];
  for (let i = 0; i < p.length; i++) {
    const step: Step = m.depth > 0 && (m.core.winner !== null || rand() < p.undoRate) ? { undo: true } : plausibleStep(m, rand, p.skill);
    if (m.core.winner !== null && m.depth === 0) break;
    const r = applyStep(m, step);
    if (!r.ok) throw new Error(`legal step refused at ${i}: ${JSON.stringify(step)}: ${r.error.message}`);
    m = r.match;
    states.push(m);
    log.push(step);
  }
  return { states, log };
}

describe('incremental statistics', () => {
  it('equal the whole-history statistics after every step and every undo', () => {
    fc.assert(
      fc.property(matches, (p) => {
        for (const m of play(p).states) expect(statsOf(m)).toEqual(referenceStats(m));
      }),
      { numRuns: fcRuns(200) },
    );
  });

  it('a delta between consecutive versions rebuilds the later statistics and carries only what changed', () => {
    fc.assert(
      fc.property(matches, (p) => {
        const { states } = play(p);
        for (let v = 1; v < states.length; v++) {
          const a = states[v - 1]!;
          const b = states[v]!;
          const delta = statsDelta(b.setup, v - 1, a.stats, b.stats, b.core);
          const before = statsOf(a);
          const after = statsOf(b);
          expect(applyStatsDelta(before, delta)).toEqual(after);
          // A step or an undo changes at most the two open innings' rows and adds or removes one row at the end.
          expect(delta.sheet.rows.length).toBeLessThanOrEqual(2);
          expect(delta.sheet.from).toBeGreaterThanOrEqual(Math.min(before.sheet.length, after.sheet.length) - 2);
          expect(delta.racks.rows.length).toBeLessThanOrEqual(1);
          // …and of the recent outcomes at most one: the new one (a step) or the older one back in front (an undo).
          expect(delta.recent.before.length + delta.recent.after.length).toBeLessThanOrEqual(1);
          // The JSON a push carries reads back the same.
          expect(applyStatsDelta(before, JSON.parse(JSON.stringify(delta)))).toEqual(after);
        }
      }),
      { numRuns: fcRuns(150) },
    );
  });

  it('a delta that does not fit the statistics a page holds is refused (the page resyncs)', () => {
    const m = play({ setup: { discipline: '14-1', players: ['Ann', 'Bob'] }, seed: 7, skill: 0.8, undoRate: 0, length: 60 }).states;
    const last = m[m.length - 1]!;
    const delta = statsDelta(last.setup, 59, m[59]!.stats, last.stats, last.core);
    expect(applyStatsDelta(statsOf(m[0]!), { ...delta, sheet: { from: statsOf(m[59]!).sheet.length + 1, rows: [] } })).toBeNull();
  });

  it('stored as JSON and resumed, they continue like the match that was never stored; trimming keeps everything but reach', () => {
    fc.assert(
      fc.property(matches, fc.integer({ min: 0, max: 10_000 }), fc.integer({ min: 1, max: 12 }), (p, cutAt, keep) => {
        const { states, log } = play(p);
        const cut = cutAt % states.length;
        const at = states[cut]!;
        const stored = JSON.parse(JSON.stringify({ core: at.core, stats: storedStats(at.stats) }));
        let resumed = resumeMatch(at.setup, stored.core, statsFromStored(stored.stats), at.depth);
        let trimmed = trimHistory(at, keep);
        expect(undoable(trimmed)).toBe(Math.min(keep, undoable(at)));
        expect(statsOf(resumed)).toEqual(statsOf(at));
        for (let v = cut; v < log.length; v++) {
          const step = log[v]!;
          for (const which of ['resumed', 'trimmed'] as const) {
            const m = which === 'resumed' ? resumed : trimmed;
            const r = applyStep(m, step);
            // An undo past what the stack still holds is refused: the server reloads the log for it.
            if (!r.ok) {
              expect(r.error.code).toBe('nothing-to-undo');
              return;
            }
            expect(statsOf(r.match)).toEqual(statsOf(states[v + 1]!));
            expect(view(r.match)).toEqual(view(states[v + 1]!));
            if (which === 'resumed') resumed = r.match;
            else trimmed = r.match;
          }
        }
      }),
      { numRuns: fcRuns(150) },
    );
  });

  it('a replay keeps every version on its undo stack as recording step by step does, and new steps from them agree', () => {
    fc.assert(
      fc.property(matches, (p) => {
        const { states, log } = play(p);
        let replayed = replay(states[0]!.setup, log);
        let recorded = states[states.length - 1]!;
        const rand = seededRandom(p.seed + 1);
        expect(statsOf(replayed)).toEqual(statsOf(recorded));
        while (recorded.depth > 0) {
          const r = applyStep(replayed, { undo: true });
          const s = applyStep(recorded, { undo: true });
          if (!r.ok || !s.ok) throw new Error('undo refused');
          expect(statsOf(r.match)).toEqual(statsOf(s.match));
          const delta = (from: Match, to: Match) => statsDelta(to.setup, 0, from.stats, to.stats, to.core);
          expect(delta(replayed, r.match)).toEqual(delta(recorded, s.match));
          // Now and then a new step from the version the undo returned to: a branch off the replayed log.
          if (s.match.core.winner === null && rand() < 0.2) {
            const step = plausibleStep(s.match, rand);
            const rb = applyStep(r.match, step);
            const sb = applyStep(s.match, step);
            if (!rb.ok || !sb.ok) throw new Error('branch step refused');
            expect(statsOf(rb.match)).toEqual(statsOf(sb.match));
            expect(delta(r.match, rb.match)).toEqual(delta(s.match, sb.match));
          }
          replayed = r.match;
          recorded = s.match;
        }
      }),
      { numRuns: fcRuns(100) },
    );
  });
});
