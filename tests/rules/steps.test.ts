/** The step and set-up schemas name the exact field at fault, for every kind of step (D-30). */
import { describe, expect, it } from 'vitest';
import { RulesError } from '../../shared/index';
import { parseSetup } from '../../server/protocol/setup-schemas';
import { parseStep } from '../../server/protocol/step-schemas';

function fieldOf(fn: () => unknown): { code: string; field?: string; message: string } {
  try {
    fn();
  } catch (e) {
    if (e instanceof RulesError) return { code: e.code, field: e.field, message: e.message };
    throw e;
  }
  throw new Error('expected a refusal');
}

describe('parseStep', () => {
  it.each([
    [{ choice: 'x' }, 'step.choice'],
    [{ choice: { cueBall: 'x', lowestBall: 'as-is' } }, 'step.choice.cueBall'],
    [{ choice: { cueBall: 'kitchen' } }, 'step.choice.lowestBall'],
    [{ undo: false }, 'step.undo'],
    [{ warning: 'C' }, 'step.warning'],
    [{ stalemate: {} }, 'step.stalemate.breaker'],
    [{ shot: { pocketed: [16] } }, 'step.shot.pocketed.0'],
    [{ shot: { call: { ball: 0 } } }, 'step.shot.call.ball'],
    [{ shot: { cueBall: 'in-pocket' } }, 'step.shot.cueBall'],
    [{ shot: { fouls: ['spitting'] } }, 'step.shot.fouls.0'],
    [{ shot: { bogus: 1 } }, 'step.shot.bogus'],
    [{ shot: { call: { ball: 3, pocket: 2 } } }, 'step.shot.call.pocket'],
    [{ choice: { cueBall: 'kitchen', lowestBall: 'as-is', why: 1 } }, 'step.choice.why'],
    [{}, 'step'],
    [{ shot: {}, undo: true }, 'step'],
    [null, 'step'],
    ['undo', 'step'],
  ])('%j → field %s', (input, field) => {
    const e = fieldOf(() => parseStep(input));
    expect(e.code).toBe('invalid-step');
    expect(e.field).toBe(field);
    expect(e.message.startsWith(`${field}: `)).toBe(true);
  });

  it('accepts every step kind of the vocabulary', () => {
    for (const s of [
      { shot: {} },
      { choice: 'accept' },
      { choice: { cueBall: 'as-is', lowestBall: 'foot-spot' } },
      { undo: true },
      { stalemate: { breaker: 'B' } },
      { warning: 'A' },
    ]) {
      expect(parseStep(s)).toEqual(s);
    }
  });
});

describe('parseSetup', () => {
  it.each([
    [{ discipline: 'snooker', players: ['A', 'B'] }, 'setup.discipline'],
    [{ discipline: '14-1', players: ['A', ''] }, 'setup.players.1'],
    [{ discipline: '14-1', players: ['A', 'B'], targets: [100, 0] }, 'setup.targets.1'],
    [{ discipline: '14-1', players: ['A', 'B'], options: { callShot: true } }, 'setup.options.callShot'],
    [{ discipline: '14-1', players: ['A', 'B'], start: { score: [1, 2], bogus: 1 } }, 'setup.start.bogus'],
    [{ discipline: 'rotation', players: ['A', 'B'], ruleset: 'wpa' }, 'setup.ruleset'],
    [{ discipline: '14-1', players: ['A', 'B'], start: { ballsOnTable: 1 } }, 'setup.start.ballsOnTable'],
    [{ discipline: 'rotation', players: ['A', 'B'], start: { onTable: [3, 3] } }, 'setup.start.onTable'],
    [{ discipline: '14-1', players: ['A', 'B'], targets: [50, 50], start: { score: [50, 0] } }, 'setup.start.score.0'],
    // The head start and the score in progress are each checked against the target, whichever is given.
    [{ discipline: '14-1', players: ['A', 'B'], targets: [50, 50], startScore: [0, 60], start: { score: [10, 0] } }, 'setup.startScore.1'],
    // Rotation never scores below 0 (R-8: no foul costs points); 14-1 may (fouls cost points).
    [{ discipline: 'rotation', players: ['A', 'B'], startScore: [-1, 0] }, 'setup.startScore.0'],
    [{ discipline: 'rotation', players: ['A', 'B'], start: { score: [5, -5] } }, 'setup.start.score.1'],
  ])('%j → field %s', (input, field) => {
    const e = fieldOf(() => parseSetup(input));
    expect(e.code).toBe('invalid-setup');
    expect(e.field).toBe(field);
  });
});

describe('parseSetup scores', () => {
  it('takes a negative 14-1 score (fouls cost points) and a Rotation score of 0 or more', () => {
    expect(parseSetup({ discipline: '14-1', players: ['A', 'B'], startScore: [-20, 0], start: { score: [-5, 3] } }).startScore).toEqual([-20, 0]);
    expect(parseSetup({ discipline: 'rotation', players: ['A', 'B'], startScore: [0, 30], start: { score: [10, 40] } }).start?.score).toEqual([10, 40]);
  });
});

describe('parseSetup strictness', () => {
  it('refuses unknown top-level fields (a typo must not silently give defaults) and unsafe names', () => {
    expect(fieldOf(() => parseSetup({ discipline: '14-1', players: ['A', 'B'], target: [25, 25] })).field).toBe('setup.target');
    expect(fieldOf(() => parseSetup({ discipline: '14-1', players: ['\u202eRTL', 'B'] })).field).toBe('setup.players.0');
    expect(fieldOf(() => parseSetup({ discipline: '14-1', players: ['A\nB', 'C'] })).field).toBe('setup.players.0');
  });

  it('names an unknown key itself, as the event bodies do: "<path>.<key>: unknown field"', () => {
    const e = fieldOf(() => parseStep({ shot: { pocketed: [], foo: 1 } }));
    expect(e).toMatchObject({ field: 'step.shot.foo', message: 'step.shot.foo: unknown field' });
    expect(fieldOf(() => parseSetup({ discipline: 'rotation', players: ['A', 'B'], options: { push: true } })).message).toBe(
      'setup.options.push: unknown field',
    );
  });

  // Every text-direction (Bidi_Control) character, line and paragraph separators, and lone surrogates (not
  // text at all: a store writing UTF-8 would turn them into U+FFFD, so the name would change on reload).
  it.each([
    ['U+061C ARABIC LETTER MARK', 'A\u061cB'],
    ['U+200E LRM', 'A\u200eB'],
    ['U+200F RLM', 'A\u200fB'],
    ['U+202A LRE', 'A\u202aB'],
    ['U+202E RLO', 'A\u202eB'],
    ['U+2066 LRI', 'A\u2066B'],
    ['U+2069 PDI', 'A\u2069B'],
    ['U+2028 LINE SEPARATOR', 'A\u2028B'],
    ['U+2029 PARAGRAPH SEPARATOR', 'A\u2029B'],
    ['a lone high surrogate', 'A\ud800B'],
    ['a lone low surrogate', 'A\udc00'],
    ['U+0085 NEXT LINE', 'A\u0085B'],
  ])('refuses a name with %s', (_what, name) => {
    for (const setup of [{ players: [name, 'B'] }, { players: ['A', 'B'], shortNames: [null, name] }]) {
      const e = fieldOf(() => parseSetup({ discipline: '14-1', ...setup }));
      expect(e.code).toBe('invalid-setup');
      expect(e.message).toMatch(
        /must not contain U\+[0-9A-F]{4,6}, (a control character|a text-direction control|a line or paragraph separator|half of a character)/,
      );
    }
  });

  it('keeps names that only look unusual: emoji with joiners, combining marks, CJK, RTL letters (in NFC: a decomposed é comes back composed)', () => {
    for (const name of ['👨‍👩‍👧‍👦', 'e\u0301', '日本 太郎', 'محمد', 'Zoë']) {
      expect(parseSetup({ discipline: '14-1', players: [name, 'B'] }).players[0]).toBe(name.normalize('NFC'));
    }
    expect(parseSetup({ discipline: '14-1', players: ['e\u0301', 'B'] }).players[0]).toBe('\u00e9');
  });

  it('takes the breaker (lag winner) and lets B open', () => {
    const s = parseSetup({ discipline: 'rotation', players: ['Ann', 'Bob'], breaker: 'B' });
    expect(s.breaker).toBe('B');
    expect(parseSetup({ discipline: '14-1', players: ['日本 太郎', 'Zoë'] }).breaker).toBe('A');
  });
});
