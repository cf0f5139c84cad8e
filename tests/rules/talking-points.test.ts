/**
 * Talking points (shared/talking-points.ts): the facts a log gives with their numbers, ranking (new first),
 * the cool-down (a fact that comes back within it is not new again), undo, event facts, three languages, and
 * a property: any prefix of a random legal log gives distinct keys, ranked, at most the limit.
 */
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { parseSetup } from '../../server/protocol/setup-schemas';
import { parseStep } from '../../server/protocol/step-schemas';
import { ASSISTANT_LANGS } from '../../shared/assistant-words';
import type { TimedStep } from '../../shared/highlights';
import type { RulesError } from '../../shared/protocol/errors';
import { NO_EVENT, talkingPointDefaults, talkingPoints, type EventFacts } from '../../shared/talking-points';

const T0 = Date.UTC(2026, 11, 3, 18, 0, 0);
const setup = parseSetup({ discipline: '14-1', ruleset: 'nba', targets: [40, 40], players: ['Ann Lee', 'Ken Watanabe'], shortNames: ['Lee', 'Watanabe'] });
const breakSafety = { shot: { call: 'safety', breakRails: { objectBalls: 2, cueBall: true } } };
const ball = { shot: { call: { ball: 1 }, pocketed: 1 } };
const miss = { shot: { call: { ball: 1 } } };
const foul = { shot: { call: { ball: 1 }, cueBall: 'scratch' } };
const timed = (steps: unknown[]): TimedStep[] => steps.map((s, i) => ({ step: parseStep(s), at: T0 + i * 20_000 }));
const opts = talkingPointDefaults('14-1');

describe('talking points of a 14-1 match', () => {
  test('needs and average per inning, best run, a run in progress marked new', () => {
    const tp = talkingPoints(setup, timed([breakSafety, ...Array(12).fill(ball)]), NO_EVENT, opts);
    const by = (k: string) => tp.find((p) => p.key === k);
    expect(by('needs:B')).toMatchObject({ numbers: { needed: 28, average: 12 }, text: 'Watanabe needs 28 to win; averages 12 an inning' });
    expect(by('best-run:B:12')).toMatchObject({ text: '12 is the best run of the match (Watanabe)', new: true });
    expect(by('on-a-run:B:2')).toMatchObject({ numbers: { run: 12 } });
    // New ones first, then by weight.
    const firstOld = tp.findIndex((p) => !p.new);
    expect(tp.slice(firstOld).every((p) => !p.new)).toBe(true);
  });

  test('on two fouls; back within the cool-down it is listed but not new again', () => {
    // B fouls twice (A misses between); then B shoots legally (off two fouls), then fouls twice again.
    const steps = [breakSafety, foul, miss, foul];
    const tp1 = talkingPoints(setup, timed(steps), NO_EVENT, opts);
    expect(tp1[0]).toMatchObject({ key: 'two-fouls:B', new: true, text: 'Watanabe is on two fouls' });
    const again = [...steps, miss, miss, miss, foul, miss, foul];
    const tp2 = talkingPoints(setup, timed(again), NO_EVENT, opts);
    expect(tp2.find((p) => p.key === 'two-fouls:B')).toMatchObject({ new: false });
    // After the cool-down it is new again.
    const later = [...steps, miss, ...Array(12).fill(miss), foul, miss, foul];
    expect(talkingPoints(setup, timed(later), NO_EVENT, opts).find((p) => p.key === 'two-fouls:B')).toMatchObject({ new: true });
  });

  test('an undo takes back the fact and its newness', () => {
    const steps = [breakSafety, foul, miss, foul];
    const tp = talkingPoints(setup, timed([...steps, { undo: true }]), NO_EVENT, opts);
    expect(tp.find((p) => p.key === 'two-fouls:B')).toBeUndefined();
  });

  test('event facts: the event high run, head-to-head; hill-hill; three languages', () => {
    const event: EventFacts = {
      highRun: { run: 15, name: 'Lee', matchId: 'm1' },
      meetings: [{ matchId: 'm0', players: ['Ken Watanabe', 'Ann Lee'], score: [40, 22], winner: 'A' }],
    };
    const steps = [breakSafety, ...Array(26).fill(ball), miss, ...Array(27).fill(ball), miss];
    const tp = talkingPoints(setup, timed(steps), event, { ...opts, limit: 20 });
    expect(tp.find((p) => p.kind === 'event-high-run')).toMatchObject({ key: 'event-high-run:A:27', text: '27 is the event’s high run (Lee)' });
    expect(tp.find((p) => p.kind === 'head-to-head')!.text).toBe('Earlier at this event: Ken Watanabe beat Ann Lee 40–22');
    expect(tp.find((p) => p.kind === 'hill-hill')).toMatchObject({ text: 'Hill-hill: 27–26' });
    for (const lang of ASSISTANT_LANGS) {
      const words = talkingPoints(setup, timed(steps), event, { ...opts, lang, limit: 20 }).map((p) => p.text);
      expect(words.every((w) => !/\{\w+\}/.test(w))).toBe(true);
      if (lang !== 'en') expect(words.join('')).toMatch(/[\u3040-\u30ff\u4e00-\u9fff]/);
    }
  });

  test('property: any prefix of a log gives distinct keys, ranked, at most the limit', () => {
    const pool = [ball, ball, ball, miss, foul];
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 0, max: pool.length - 1 }), { maxLength: 60 }), fc.integer({ min: 1, max: 8 }), (picks, limit) => {
        const steps = [breakSafety, ...picks.map((k) => pool[k]!)];
        let tp;
        try {
          tp = talkingPoints(setup, timed(steps), NO_EVENT, { ...opts, limit });
        } catch (e) {
          // A random log may win the match early (a step after it: match-over) or leave a third foul's choice pending.
          expect(['match-over', 'choice-pending']).toContain((e as RulesError).code);
          return;
        }
        expect(tp.length).toBeLessThanOrEqual(limit);
        expect(new Set(tp.map((p) => p.key)).size).toBe(tp.length);
        for (let i = 1; i < tp.length; i++) {
          const a = tp[i - 1]!;
          const b = tp[i]!;
          expect(Number(a.new) > Number(b.new) || (a.new === b.new && a.weight >= b.weight)).toBe(true);
        }
      }),
      { numRuns: 150 },
    );
  });
});
