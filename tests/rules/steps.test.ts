/** The step and set-up schemas name the exact field at fault, for every kind of step (D-30). */
import { describe, expect, it } from 'vitest';
import { parseSetup, parseStep, RulesError } from '../../shared/index';

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
    [{ shot: { bogus: 1 } }, 'step.shot'],
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
    for (const s of [{ shot: {} }, { choice: 'accept' }, { choice: { cueBall: 'as-is', lowestBall: 'foot-spot' } }, { undo: true }, { stalemate: { breaker: 'B' } }, { warning: 'A' }]) {
      expect(parseStep(s)).toEqual(s);
    }
  });
});

describe('parseSetup', () => {
  it.each([
    [{ discipline: 'snooker', players: ['A', 'B'] }, 'setup.discipline'],
    [{ discipline: '14-1', players: ['A', ''] }, 'setup.players.1'],
    [{ discipline: '14-1', players: ['A', 'B'], targets: [100, 0] }, 'setup.targets.1'],
    [{ discipline: '14-1', players: ['A', 'B'], options: { callShot: true } }, 'setup.options'],
    [{ discipline: 'rotation', players: ['A', 'B'], ruleset: 'wpa' }, 'setup.ruleset'],
    [{ discipline: '14-1', players: ['A', 'B'], start: { ballsOnTable: 1 } }, 'setup.start.ballsOnTable'],
    [{ discipline: 'rotation', players: ['A', 'B'], start: { onTable: [3, 3] } }, 'setup.start.onTable'],
    [{ discipline: '14-1', players: ['A', 'B'], targets: [50, 50], start: { score: [50, 0] } }, 'setup.start.score.0'],
  ])('%j → field %s', (input, field) => {
    const e = fieldOf(() => parseSetup(input));
    expect(e.code).toBe('invalid-setup');
    expect(e.field).toBe(field);
  });
});

describe('parseSetup strictness', () => {
  it('refuses unknown top-level fields (a typo must not silently give defaults) and unsafe names', () => {
    expect(fieldOf(() => parseSetup({ discipline: '14-1', players: ['A', 'B'], target: [25, 25] })).field).toBe('setup.target');
    expect(fieldOf(() => parseSetup({ discipline: '14-1', players: ['\u202eRTL', 'B'] })).field).toBe('setup.players.0');
    expect(fieldOf(() => parseSetup({ discipline: '14-1', players: ['A\nB', 'C'] })).field).toBe('setup.players.0');
  });

  it('takes the breaker (lag winner) and lets B open', () => {
    const s = parseSetup({ discipline: 'rotation', players: ['Ann', 'Bob'], breaker: 'B' });
    expect(s.breaker).toBe('B');
    expect(parseSetup({ discipline: '14-1', players: ['日本 太郎', 'Zoë'] }).breaker).toBe('A');
  });
});
