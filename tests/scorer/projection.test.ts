/**
 * The console's view of queued steps: the confirmed snapshot played forward with the real rules. Checked
 * against the engine replaying the whole log (the server's answer once the queue is acknowledged).
 */
import { describe, expect, test } from 'vitest';
import { applyStep, newMatch, replay, view, type Match, type MatchState, type Step } from '../../shared/index';
import { parseSetup } from '../../server/protocol/setup-schemas';
import { plausibleStep, seededRandom } from '../../shared/simulate';
import { ConfirmedChain, projectQueue } from '../../web/src/scorer/projection';

/** The outbox entries for `steps` queued against version `from`. */
const queue = (steps: Step[], from: number) => steps.map((step, i) => ({ step, expectedVersion: from + i }));

function play(setupIn: unknown, steps: Step[]): Match {
  let m = newMatch(parseSetup(setupIn));
  for (const st of steps) {
    const r = applyStep(m, st);
    if (!r.ok) throw new Error(`${JSON.stringify(st)}: ${r.error.message}`);
    m = r.match;
  }
  return m;
}

const STRAIGHT = { discipline: '14-1', players: ['Ann', 'Bob'] };
const breakSafety = (objectBalls: number): Step => ({ shot: { call: 'safety', breakRails: { objectBalls, cueBall: true } } });

describe('queued steps lead the console to the panel the rules call for', () => {
  test('a queued breaking foul: the choice is pending, −2 shown, nothing else changed', () => {
    const m = play(STRAIGHT, []);
    const shown = projectQueue(m.setup, { version: 0, state: view(m) }, queue([breakSafety(1)], 0));
    expect(shown).toMatchObject({ pending: 1, projected: 1, skipped: 0, stop: null });
    expect([shown.state.awaiting, shown.state.score, shown.state.turn]).toEqual(['break-foul-choice', [-2, 0], 'B']);
  });

  test('a queued third foul: −16 and the opponent decides', () => {
    const setup = { discipline: '14-1', players: ['Ann', 'Bob'], start: { turn: 'A', ballsOnTable: 10, fouls: [2, 0], score: [5, 5] } };
    const m = play(setup, []);
    const shown = projectQueue(m.setup, { version: 0, state: view(m) }, queue([{ shot: { call: { made: false }, cueBall: 'scratch' } }], 0));
    expect([shown.state.awaiting, shown.state.score, shown.state.fouls]).toEqual(['three-foul-choice', [-11, 5], [0, 0]]);
  });

  test('a queued run leaving one ball: re-rack, 15 balls, same shooter; then a queued miss passes the turn', () => {
    const setup = { discipline: '14-1', players: ['Ann', 'Bob'], start: { turn: 'A', ballsOnTable: 4 } };
    const m = play(setup, []);
    const steps: Step[] = [
      { shot: { call: { made: true }, pocketed: 3, rackArea: { cueBall: false, breakBall: false, breakBallInKitchen: false, headSpotTaken: false } } },
      { shot: { call: { made: false } } },
    ];
    const one = projectQueue(m.setup, { version: 0, state: view(m) }, queue(steps.slice(0, 1), 0));
    expect([one.state.rack, one.state.ballsOnTable, one.state.turn, one.state.score]).toEqual([2, 15, 'A', [3, 0]]);
    const two = projectQueue(m.setup, { version: 0, state: view(m) }, queue(steps, 0));
    expect(two.state).toEqual(view(play(setup, steps)));
  });

  test('an undo of a queued step takes it back in the projection', () => {
    const m = play(STRAIGHT, []);
    const shown = projectQueue(m.setup, { version: 0, state: view(m) }, queue([breakSafety(2), { shot: { call: 'safety' } }, { undo: true }], 0));
    expect(shown.state).toEqual(view(play(STRAIGHT, [breakSafety(2)])));
    expect(shown.projected).toBe(3);
  });

  test('a refused step stops the projection there, with the rules’ reason', () => {
    const m = play(STRAIGHT, []);
    const shown = projectQueue(m.setup, { version: 0, state: view(m) }, queue([breakSafety(0), { shot: { call: 'safety' } }, { choice: 'accept' }], 0));
    expect(shown.projected).toBe(1);
    expect(shown.stop).toMatchObject({ index: 1, code: 'choice-pending', step: { shot: { call: 'safety' } } });
    expect(shown.state.awaiting).toBe('break-foul-choice');
  });

  test('entries the snapshot already holds (acknowledged, not yet removed) are not played twice', () => {
    const steps: Step[] = [breakSafety(2), { shot: { call: { made: true }, pocketed: 2 } }];
    const m1 = play(STRAIGHT, steps.slice(0, 1));
    const shown = projectQueue(m1.setup, { version: 1, state: view(m1) }, queue(steps, 0));
    expect(shown).toMatchObject({ pending: 1, skipped: 1, projected: 1 });
    expect(shown.state).toEqual(view(play(STRAIGHT, steps)));
  });

  test('an empty queue shows the confirmed state itself', () => {
    const m = play(STRAIGHT, [breakSafety(2)]);
    const state = view(m);
    expect(projectQueue(m.setup, { version: 1, state }, [])).toEqual({ state, pending: 0, projected: 0, skipped: 0, stop: null, results: [] });
  });
});

describe('an undo of a confirmed step', () => {
  const steps: Step[] = [breakSafety(2), { shot: { call: { made: true }, pocketed: 3 } }, { shot: { call: 'safety' } }];

  test('uses the confirmed states this console saw, one version after another', () => {
    const chain = new ConfirmedChain();
    for (let k = 0; k <= 3; k++) chain.record(k, view(play(STRAIGHT, steps.slice(0, k))));
    const m = play(STRAIGHT, steps);
    const shown = projectQueue(m.setup, { version: 3, state: view(m) }, queue([{ undo: true }, { undo: true }, { shot: { call: 'safety' } }], 3), chain);
    expect(shown.stop).toBeNull();
    expect(shown.state).toEqual(view(replay(m.setup, [...steps, { undo: true }, { undo: true }, { shot: { call: 'safety' } }])));
  });

  test('says so when the state before it is unknown (after a reload, or a gap in the versions)', () => {
    const m = play(STRAIGHT, steps);
    const none = projectQueue(m.setup, { version: 3, state: view(m) }, queue([{ undo: true }], 3));
    expect(none.stop).toMatchObject({ code: 'unknown-undo', index: 0 });
    expect(none.state).toEqual(view(m));
    const chain = new ConfirmedChain();
    chain.record(0, view(play(STRAIGHT, [])));
    chain.record(1, view(play(STRAIGHT, steps.slice(0, 1))));
    chain.record(3, view(m)); // version 2 never seen: the run restarts at 3
    expect(chain.before(2, 3)).toBeNull();
    expect(projectQueue(m.setup, { version: 3, state: view(m) }, queue([{ undo: true }], 3), chain).stop?.code).toBe('unknown-undo');
  });

  test('at the start of the match there is nothing to undo', () => {
    const m = play(STRAIGHT, []);
    expect(projectQueue(m.setup, { version: 0, state: view(m) }, queue([{ undo: true }], 0)).stop?.code).toBe('nothing-to-undo');
  });
});

test('long logs with undos, both disciplines: snapshot + projected queue = the engine over the whole log, step by step', () => {
  const setups = [
    { discipline: '14-1', players: ['Ann', 'Bob'], targets: [60, 60] },
    { discipline: '14-1', ruleset: 'wpa', players: ['Ann', 'Bob'], targets: [60, 60] },
    { discipline: 'rotation', players: ['Cleo', 'Dan'] },
    { discipline: 'rotation', players: ['Cleo', 'Dan'], options: { callShot: true } },
  ];
  for (const [n, setupIn] of setups.entries()) {
    const rand = seededRandom(1000 + n);
    const setup = parseSetup(setupIn);
    let m = newMatch(setup);
    const log: Step[] = [];
    const states: MatchState[] = [view(m)];
    while (log.length < 120 && !m.core.winner) {
      const step: Step = m.depth > 0 && rand() < 0.12 ? { undo: true } : plausibleStep(m, rand);
      const r = applyStep(m, step);
      if (!r.ok) throw new Error(`${JSON.stringify(step)}: ${r.error.message}`);
      m = r.match;
      log.push(step);
      states.push(view(m));
    }
    const final = view(m);
    for (let k = 0; k <= log.length; k += 7) {
      const chain = new ConfirmedChain(200);
      for (let v = 0; v <= k; v++) chain.record(v, states[v]!);
      const shown = projectQueue(setup, { version: k, state: states[k]! }, queue(log.slice(k), k), chain);
      expect(shown.stop, `setup ${n}, snapshot at ${k}`).toBeNull();
      expect(shown.state, `setup ${n}, snapshot at ${k}`).toEqual(final);
      // Each queued step's result is the engine's own: the outcome (and so the caption) it gets once confirmed.
      expect(shown.results).toHaveLength(log.length - k);
      shown.results.forEach((r, i) => {
        expect(r.after).toEqual(states[k + i + 1]);
        if ('undo' in log[k + i]!) expect([r.outcome, r.undone]).toEqual([null, states[k + i]!.last]);
        else expect(r.outcome).toEqual(states[k + i + 1]!.last);
      });
    }
  }
});
