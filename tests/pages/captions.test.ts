/**
 * The pages' words for a match state (web/src/lib/format.ts, format-whatif.ts), checked against the
 * real rules engine: one caption function for every page, naming the player like a commentator ("Ann —
 * third foul −16"); each fact shown once (what comes next is the situation line's, not repeated by the
 * caption); the run and points in every language; Rotation's third foul says "ball in hand anywhere"
 * (foulPlacement.thirdFoul); the what-if line for a player on two fouls follows the S-15 warning. Every
 * outcome kind in every language: translations.test.ts. Pure: no browser, no server.
 */
import { describe, expect, it } from 'vitest';
import { caption, situation } from '../../web/src/lib/format';
import { whatIf } from '../../web/src/lib/format-whatif';
import { t } from '../../web/src/lib/i18n-air';
import { applyStep, newMatch, view, type Match } from '../../shared/index';
import { parseSetup } from '../../server/protocol/setup-schemas';
import type { MatchState } from '../../shared/protocol/state';
import type { Step } from '../../shared/protocol/steps';
import { plausibleStep, seededRandom } from '../../shared/simulate';

function play(setup: unknown, steps: Step[]): { match: Match; state: MatchState } {
  let match = newMatch(parseSetup(setup));
  for (const s of steps) {
    const r = applyStep(match, s);
    if (!r.ok) throw r.error;
    match = r.match;
  }
  return { match, state: view(match) };
}

const STRAIGHT = { discipline: '14-1', ruleset: 'nba', players: ['Ann', 'Bob'], targets: [100, 100] };
const ROTATION = { discipline: 'rotation', ruleset: 'nba', players: ['Ann', 'Bob'], targets: [120, 120] };
const LEGAL_BREAK: Step = { shot: { call: 'safety', breakRails: { objectBalls: 2, cueBall: true } } };
const BREAKING_FOUL: Step = { shot: { call: 'safety', breakRails: { objectBalls: 1, cueBall: true } } };
const FOUL: Step = { shot: { call: { ball: 2 }, rail: false } };
const SAFE: Step = { shot: { call: 'safety' } };

describe('captions and situation lines', () => {
  it('a breaking foul: the caption says who and the foul, the situation line the pending choice (once each)', () => {
    const { state } = play(STRAIGHT, [BREAKING_FOUL]);
    expect(state.awaiting).toBe('break-foul-choice');
    expect(caption(state, 'en')).toBe('Ann \u2014 breaking foul \u22122');
    expect(situation(state, 'en')).toBe('Bob to choose: accept the table or re-break');
    expect(caption(state, 'ja')).toBe('Ann \u2014 ブレイクファウル \u22122');
    expect(caption(state, 'zh-TW')).toBe('Ann \u2014 開球犯規 \u22122');
    // Without a situation line beside it (overlay hide=situation) the caption carries the choice itself.
    expect(caption(state, 'en', true)).toBe('Ann \u2014 breaking foul \u22122 \u00b7 Bob to choose: accept the table or re-break');
    expect(caption(state, 'ja', true)).toBe(`Ann \u2014 ブレイクファウル \u22122 \u00b7 ${t('ja', 'toChooseBreakFoul', { name: 'Bob' })}`);

    const rebreak = play(STRAIGHT, [BREAKING_FOUL, { choice: 'rebreak' }]).state;
    expect([caption(rebreak, 'en'), situation(rebreak, 'en')]).toEqual(['Bob chooses a re-break', 'Ann to break']);
  });

  it('14-1 third foul (NBA choice), a scratch with ball in hand, and the winner', () => {
    const third = play(STRAIGHT, [LEGAL_BREAK, FOUL, SAFE, FOUL, SAFE, FOUL]).state;
    expect(third.awaiting).toBe('three-foul-choice');
    expect([caption(third, 'en'), situation(third, 'en')]).toEqual(['Bob \u2014 third foul (no rail) \u221216', 'Ann to choose: accept the table or re-rack']);
    expect(caption(third, 'zh-TW')).toBe('Bob \u2014 連續三次犯規（未碰顆星） \u221216');
    const two = play(STRAIGHT, [LEGAL_BREAK, FOUL, SAFE, FOUL]).state;
    expect(caption(two, 'en')).toBe('Bob \u2014 no rail \u22121, on two fouls');
    expect(caption(two, 'ja')).toBe('Bob \u2014 ノークッション \u22121、ツーファウル');

    const scratch = play(STRAIGHT, [LEGAL_BREAK, { shot: { call: { ball: 1 }, cueBall: 'scratch' } }]).state;
    expect([caption(scratch, 'en'), situation(scratch, 'en')]).toEqual(['Bob \u2014 scratch \u22121', 'Ann: ball in hand behind the head string']);
    expect(caption(scratch, 'en', true)).toBe('Bob \u2014 scratch \u22121 \u00b7 Ann: ball in hand behind the head string');

    const won = play({ ...STRAIGHT, targets: [2, 2] }, [
      LEGAL_BREAK,
      { shot: { call: { ball: 3 }, pocketed: [3] } },
      { shot: { call: { ball: 5 }, pocketed: [5] } },
    ]).state;
    expect(won.winner).toBe('B');
    expect([caption(won, 'en'), situation(won, 'en')]).toEqual(['Bob +1, run 2', 'Bob wins']);
    expect(caption(won, 'ja')).toBe('Bob +1、ラン2'); // the run in Japanese too; "Bob の勝利" is the situation line's
    expect(caption(won, 'zh-TW')).toBe('Bob +1，連續得分 2');
    expect(whatIf(parseSetup({ ...STRAIGHT, targets: [2, 2] }), won, 'en')).toEqual([]);
  });

  it('a player on two fouls: what-if cost follows the S-15 warning', () => {
    const setup = { ...STRAIGHT, options: { requireTwoFoulWarning: true } };
    const steps = [LEGAL_BREAK, FOUL, SAFE, FOUL];
    const unwarned = play(setup, steps);
    expect(unwarned.state.onTwoFouls).toEqual([false, true]);
    expect(whatIf(unwarned.match.setup, unwarned.state, 'en')[0]).toBe('Bob is on two fouls, not yet warned: another foul costs \u22121');
    const warned = play(setup, [...steps, { warning: 'B' }]);
    expect(warned.state.warned).toEqual([false, true]);
    expect(caption(warned.state, 'en')).toBe('Bob warned: on two fouls');
    expect(whatIf(warned.match.setup, warned.state, 'en')[0]).toBe('Bob is on two fouls: another foul costs \u221216');
    const assumed = play(STRAIGHT, steps);
    expect(whatIf(assumed.match.setup, assumed.state, 'en')[0]).toBe('Bob is on two fouls: another foul costs \u221216');
  });

  it('Rotation: push out and its choice, a foul placement, the third foul with ball in hand anywhere', () => {
    const BREAK: Step = { shot: { firstContact: 1, pocketed: [], breakRails: { objectBalls: 4 } } };
    const pushed = play(ROTATION, [BREAK, { shot: { pushOut: true } }]).state;
    expect(pushed.awaiting).toBe('push-out-choice');
    expect([caption(pushed, 'en'), situation(pushed, 'en')]).toEqual(['Bob pushes out', 'Ann to choose: shoot or pass']);

    const scratch: Step = { shot: { firstContact: 1, cueBall: 'scratch' } };
    const placing = play(ROTATION, [BREAK, scratch]).state;
    expect(placing.foulPlacement?.thirdFoul).toBe(false);
    expect([caption(placing, 'en'), situation(placing, 'en')]).toEqual(['Bob \u2014 scratch', 'Ann places the balls after the foul']);

    // Bob fouls three times in a row (Ann answers each placement and misses safely).
    const place: Step = { choice: { cueBall: 'kitchen', lowestBall: 'as-is' } };
    const safe: Step = { shot: { firstContact: 1 } };
    const placed1 = play(ROTATION, [BREAK, scratch, place]).state;
    expect([caption(placed1, 'en'), situation(placed1, 'en')]).toEqual(['Ann places the balls: 1 as is', 'Ann: ball in hand behind the head string']);
    expect(caption(placed1, 'zh-TW')).toBe('Ann 擺放：1 號不動');
    const after2 = [BREAK, scratch, place, safe, scratch, place, safe];
    const third = play(ROTATION, [...after2, scratch]).state;
    expect(third.foulPlacement?.thirdFoul).toBe(true);
    expect([caption(third, 'en'), situation(third, 'en')]).toEqual(['Bob \u2014 third foul (scratch)', 'Ann: ball in hand']);
    expect(caption(third, 'ja')).toBe('Bob \u2014 スリーファウル（スクラッチ）'); // no "−0": Rotation fouls cost no points
    const placed = play(ROTATION, [...after2, scratch, { choice: { cueBall: 'anywhere', lowestBall: 'foot-spot' } }]).state;
    expect([caption(placed, 'en'), situation(placed, 'en')]).toEqual(['Ann places the balls: 1 on the foot spot', 'Ann: ball in hand']);
  });

  it('simulated matches: the caption leaves what is pending to the situation line (each fact once)', () => {
    const seen = new Map<string, number>();
    const mark = (k: string) => seen.set(k, (seen.get(k) ?? 0) + 1);
    const setups = [
      STRAIGHT,
      { ...STRAIGHT, ruleset: 'wpa' },
      ROTATION,
      { ...ROTATION, targets: [61, 61], options: { format: 'single-rack-61' } },
      { ...ROTATION, options: { illegalBreakPolicy: 'choice' } },
    ];
    for (const [n, setup] of setups.entries()) {
      for (let seed = 1; seed <= 12; seed++) {
        const rand = seededRandom(seed * 100 + n);
        let match = newMatch(parseSetup({ ...setup, targets: setup.discipline === '14-1' ? [60, 60] : setup.targets }));
        for (let i = 0; i < 400 && !match.core.winner; i++) {
          const r = applyStep(match, plausibleStep(match, rand, 0.6));
          if (!r.ok) throw r.error;
          match = r.match;
          const s = view(match);
          const cap = caption(s, 'en');
          const sit = situation(s, 'en');
          const next = s.winner ? 'winner' : s.awaiting ? 'awaiting' : s.breakShot ? 'break' : s.ballInHand ? 'hand' : 'none';
          mark(next);
          if (s.foulPlacement?.thirdFoul) mark('third-foul-placement');
          const ctx = `${JSON.stringify(cap)} / ${JSON.stringify(sit)}`;
          // Each fact once: the caption names who did what; what comes next is the situation line's.
          expect(cap.startsWith(s.names[s.last!.by === 'A' ? 0 : 1]), ctx).toBe(true);
          if (next === 'winner') expect(cap, ctx).not.toMatch(/wins/);
          if (next === 'awaiting') expect(cap, ctx).not.toMatch(/to choose|places the balls after/);
          if (next === 'hand' || s.foulPlacement?.thirdFoul) expect(cap, ctx).not.toMatch(/ball in hand/);
          if (next === 'break') expect(cap, ctx).not.toMatch(/to break/);
          if (next !== 'none') expect(sit, ctx).not.toBe('');
        }
      }
    }
    // The walk reached every kind of "what comes next", so the checks above were exercised.
    for (const k of ['winner', 'awaiting', 'break', 'hand', 'none', 'third-foul-placement']) {
      expect(seen.get(k) ?? 0, `${k} never reached: ${JSON.stringify([...seen])}`).toBeGreaterThan(0);
    }
  });
});
