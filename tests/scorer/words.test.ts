/**
 * Queued and refused steps are told in the same words as confirmed ones: the outcome of projecting the queue,
 * worded by the pages' formatter exactly as the recent-steps list words the server's outcomes once confirmed,
 * naming the player and the foul (from the outcome's facts, whichever device entered it); an undo says what
 * it takes back.
 */
import { describe, expect, test } from 'vitest';
import { applyStep, newMatch, statsOf, view, type Match, type Step } from '../../shared/index';
import { parseSetup } from '../../server/protocol/setup-schemas';
import { projectQueue } from '../../web/src/scorer/projection';
import { ScorerSession, type SessionView } from '../../web/src/scorer/session';
import { stepLine, stepText } from '../../web/src/lib/format';
import { describeStep, stepWords } from '../../web/src/scorer/words';
import { FakeClient, MemStorage } from '../helpers/fake-client';
import { plausibleStep, seededRandom } from '../../shared/simulate';

function play(setupIn: unknown, steps: Step[]): Match {
  let m = newMatch(parseSetup(setupIn));
  for (const st of steps) {
    const r = applyStep(m, st);
    if (!r.ok) throw new Error(`${JSON.stringify(st)}: ${r.error.message}`);
    m = r.match;
  }
  return m;
}
const NAMES: [string, string] = ['Ann', 'Bob'];
const queue = (steps: Step[], from: number) => steps.map((step, i) => ({ step, expectedVersion: from + i }));

const STRAIGHT = { discipline: '14-1', players: ['Ann', 'Bob'] };
const ROTATION = { discipline: 'rotation', players: ['Ann', 'Bob'], start: { turn: 'A', onTable: [3, 5, 9, 12] } };

describe("queued steps in the engine's words", () => {
  test('Rotation: a legal break that pockets nothing reads "no ball", never "misses" (issue 29), in every language; a later empty shot still misses', () => {
    const fresh = { discipline: 'rotation', players: ['Ann', 'Bob'] };
    const dry = play(fresh, [{ shot: { breakRails: { objectBalls: 4 } } }]);
    const o = view(dry).last!;
    expect(o.dryBreak).toBe(true);
    expect(stepText(o, NAMES, 'en')).toBe('Ann breaks, no ball');
    expect(stepText(o, NAMES, 'ja')).toBe('Ann ブレイク、ノーボール');
    expect(stepText(o, NAMES, 'zh-TW')).toBe('Ann 開球，無球進袋');
    const later = play(fresh, [{ shot: { breakRails: { objectBalls: 4 } } }, { shot: { firstContact: 1 } }]);
    const miss = view(later).last!;
    expect(miss.dryBreak).toBeUndefined();
    expect(stepText(miss, NAMES, 'en')).toBe('Bob misses');
  });

  test("14-1: a breaking foul, the re-break and a safety read as the recent list will read the server's outcomes", () => {
    const steps: Step[] = [
      { shot: { call: 'safety', breakRails: { objectBalls: 1, cueBall: true } } },
      { choice: 'rebreak' },
      { shot: { call: 'safety', breakRails: { objectBalls: 2, cueBall: true } } },
    ];
    const m = play(STRAIGHT, []);
    const shown = projectQueue(m.setup, { version: 0, state: view(m) }, queue(steps, 0));
    const words = shown.results.map((r, i) => stepWords('en', steps[i]!, r));
    expect(words).toEqual(statsOf(play(STRAIGHT, steps)).recent.map((o) => stepLine(o, ['Ann', 'Bob'], 'en')));
    expect(words).toEqual([
      'Ann \u2014 breaking foul \u22122 \u00b7 Bob to choose: accept the table or re-break',
      'Bob chooses a re-break \u00b7 Ann to break',
      'Ann plays safe',
    ]);
  });

  test("Rotation: a foul names what it was (touched ball), with the player's name; an undo says what it takes back", () => {
    const steps: Step[] = [{ shot: { firstContact: 3, fouls: ['touched-ball'] } }, { undo: true }];
    const m = play(ROTATION, []);
    const shown = projectQueue(m.setup, { version: 0, state: view(m) }, queue(steps, 0));
    expect(stepWords('en', steps[0]!, shown.results[0])).toBe('Ann \u2014 touched ball \u00b7 Bob places the balls after the foul');
    expect(stepWords('en', steps[1]!, shown.results[1])).toBe('Undone: Ann \u2014 touched ball');
    // Two fouls at once: both named.
    const scratch: Step = { shot: { firstContact: 3, cueBall: 'scratch', fouls: ['double-hit'] } };
    const s2 = projectQueue(m.setup, { version: 0, state: view(m) }, queue([scratch], 0));
    expect(stepWords('en', scratch, s2.results[0])).toBe('Ann \u2014 scratch + double hit \u00b7 Bob places the balls after the foul');
    // 14-1: the foul's name, then the penalty.
    const noRail: Step = { shot: { call: { made: false }, rail: false } };
    const m14 = play({ ...STRAIGHT, start: { turn: 'A', ballsOnTable: 10 } }, []);
    const s3 = projectQueue(m14.setup, { version: 0, state: view(m14) }, queue([noRail], 0));
    expect(stepWords('en', noRail, s3.results[0])).toBe('Ann \u2014 no rail \u22121');
  });

  test('other languages: the same line from the same facts, with the name and the foul', () => {
    const step: Step = { shot: { firstContact: 3, fouls: ['touched-ball'] } };
    const m = play(ROTATION, []);
    const r = projectQueue(m.setup, { version: 0, state: view(m) }, queue([step], 0)).results[0];
    expect(stepWords('zh-TW', step, r)).toBe('Ann \u2014 觸球 \u00b7 Bob 於犯規後擺放母球與最小號球');
    expect(stepWords('ja', step, r)).toBe('Ann \u2014 タッチ \u00b7 Bob がファウル後の配置を行う');
  });

  test('without a projection (the rules refused it) a step falls back to short words; choices are words, not codes', () => {
    expect(stepWords('en', { choice: 'rebreak' }, null)).toBe('re-break');
    expect(describeStep('en', { choice: 'accept' })).toBe('accepts the table');
    expect(describeStep('en', { shot: { call: { made: false }, cueBall: 'off-table', offTable: [4] } })).toBe('foul: Ball off table');
  });

  test('the undo button names the confirmed step it takes back, with its fouls, whichever device entered it', async () => {
    const client = new FakeClient(ROTATION);
    const s = new ScorerSession(client, 'm1', new MemStorage(), true);
    const stop = s.start();
    let v: SessionView = s.view();
    s.subscribe((x) => (v = x));
    await new Promise((r) => setTimeout(r, 0));
    s.submit({ shot: { firstContact: 3, fouls: ['double-hit'] } });
    for (let i = 0; i < 3; i++) await new Promise((r) => setTimeout(r, 0));
    expect(v.queued).toHaveLength(0);
    const last = () => stepText(v.shown!.state.last!, v.shown!.state.names, 'en');
    expect(last()).toBe('Ann \u2014 double hit');
    // Another device's step: the same words (the outcome carries the foul).
    client.external({ choice: { cueBall: 'kitchen', lowestBall: 'as-is' } });
    client.external({ shot: { firstContact: 3, fouls: ['touched-ball'] } });
    expect(last()).toBe('Bob \u2014 touched ball');
    stop();
  });

  test('a stale refusal lists the steps in the words they were shown with', async () => {
    const client = new FakeClient(STRAIGHT);
    const s = new ScorerSession(client, 'm1', new MemStorage(), true);
    const stop = s.start();
    await new Promise((r) => setTimeout(r, 0));
    client.setStatus('offline');
    s.submit({ shot: { call: 'safety', breakRails: { objectBalls: 1, cueBall: true } } });
    s.submit({ choice: 'accept' });
    client.external({ shot: { call: 'safety', breakRails: { objectBalls: 2, cueBall: true } } });
    client.setStatus('live');
    for (let i = 0; i < 3; i++) await new Promise((r) => setTimeout(r, 0));
    const n = s.view().notice;
    expect(n?.kind).toBe('stale');
    if (n?.kind !== 'stale') return;
    expect(n.items.map((x) => stepWords('en', x.step, x.result))).toEqual([
      'Ann \u2014 breaking foul \u22122 \u00b7 Bob to choose: accept the table or re-break',
      'Bob accepts the table',
    ]);
    stop();
  });
});

describe('"on two fouls" in a foul\'s line is the state\'s own onTwoFouls (D-6, S-15, R-9)', () => {
  test('over plausible matches of both disciplines: said exactly when the offender now stands on two fouls', () => {
    const setups = [
      { discipline: '14-1', ruleset: 'nba', players: ['Ann', 'Bob'], targets: [40, 40] },
      { discipline: '14-1', ruleset: 'wpa', players: ['Ann', 'Bob'], targets: [40, 40], options: { requireTwoFoulWarning: true } },
      { discipline: 'rotation', players: ['Ann', 'Bob'] },
      { discipline: 'rotation', players: ['Ann', 'Bob'], options: { threeFoulRule: false } },
    ];
    const said = { yes: 0, no: 0 };
    for (const [n, setup] of setups.entries()) {
      for (let g = 0; g < 4; g++) {
        const rand = seededRandom(500 + n * 31 + g);
        let m = newMatch(parseSetup(setup));
        for (let i = 0; i < 300 && !m.core.winner; i++) {
          const r = applyStep(m, plausibleStep(m, rand, 0.3));
          if (!r.ok) throw new Error(r.error.message);
          m = r.match;
          if (r.outcome.foul !== 'foul') continue;
          const onTwo = view(m).onTwoFouls[r.outcome.by === 'A' ? 0 : 1];
          expect(stepText(r.outcome, ['Ann', 'Bob'], 'en').includes('on two fouls'), JSON.stringify(r.outcome)).toBe(onTwo);
          said[onTwo ? 'yes' : 'no']++;
        }
      }
    }
    expect(said.yes).toBeGreaterThan(0);
    expect(said.no).toBeGreaterThan(0);
  });
});
