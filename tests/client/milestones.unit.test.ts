/**
 * The milestone pop-ups' choice (overlay/src/milestones.ts): the top new point, never on the first version the
 * page sees, never while held, and never two within `every` steps — a property over random sequences of
 * versions, points and holds.
 */
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { MILESTONE_EVERY, nextPop, NO_POPS, type PopMemory, type PopPoint } from '../../overlay/src/milestones';
import { parseOverlayParams } from '../../overlay/src/params';

const p = (key: string, isNew: boolean): PopPoint => ({ key, text: key, new: isNew });

describe('nextPop', () => {
  test('the top new point; nothing on the first version seen, nothing while held', () => {
    let m: PopMemory = NO_POPS;
    let r = nextPop([p('a', true)], 5, false, m, 8);
    expect(r.pop).toBeNull(); // the page just loaded: what it finds is not news
    m = r.memory;
    r = nextPop([p('old', false), p('a', true), p('b', true)], 6, true, m, 8);
    expect(r.pop).toBeNull();
    r = nextPop([p('old', false), p('a', true), p('b', true)], 6, false, r.memory, 8);
    expect(r.pop?.key).toBe('a');
    expect(nextPop([p('c', true)], 13, false, r.memory, 8).pop).toBeNull();
    expect(nextPop([p('c', true)], 14, false, r.memory, 8).pop?.key).toBe('c');
  });

  test('property: pops are at least `every` versions apart, never held, never on the first version', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 2, max: 20 }),
        fc.array(fc.record({ gap: fc.integer({ min: 1, max: 4 }), fresh: fc.boolean(), held: fc.boolean() }), { maxLength: 80 }),
        (every, seq) => {
          let m: PopMemory = NO_POPS;
          let v = 0;
          const popped: number[] = [];
          for (const s of seq) {
            v += s.gap;
            const r = nextPop([p('x', s.fresh)], v, s.held, m, every);
            if (r.pop) {
              expect(s.held).toBe(false);
              expect(s.fresh).toBe(true);
              popped.push(v);
            }
            m = r.memory;
          }
          if (seq.length) expect(popped).not.toContain(seq[0]!.gap);
          for (let i = 1; i < popped.length; i++) expect(popped[i]! - popped[i - 1]!).toBeGreaterThanOrEqual(every);
        },
      ),
      { numRuns: 300 },
    );
  });
});

describe('overlay parameters', () => {
  test('milestones=auto and milestoneShots; a bad value falls back and is named for debug=1', () => {
    expect(parseOverlayParams('')).toMatchObject({ milestones: 'off', milestoneShots: MILESTONE_EVERY });
    expect(parseOverlayParams('?milestones=auto&milestoneShots=12')).toMatchObject({ milestones: 'auto', milestoneShots: 12, unknown: [] });
    const bad = parseOverlayParams('?milestones=sometimes&milestoneShots=1');
    expect(bad).toMatchObject({ milestones: 'off', milestoneShots: MILESTONE_EVERY });
    expect(bad.unknown).toEqual(['milestones=sometimes', 'milestoneShots=1']);
  });
});
