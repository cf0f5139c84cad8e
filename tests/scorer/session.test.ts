/**
 * The console controller against a fake live client backed by the real rules engine: steps are applied only
 * when acknowledged, the outbox replays after reconnect, a stale refusal resyncs and tells the scorer.
 */
import { afterEach, describe, expect, test, vi } from 'vitest';
import { ScorerSession, type SessionView } from '../../web/src/scorer/session';
import { FakeClient, MemStorage } from '../helpers/fake-client';

const settle = () => new Promise((r) => setTimeout(r, 0));
const SETUP = { discipline: '14-1', players: ['Ann', 'Bob'], start: { score: [10, 10], turn: 'A', ballsOnTable: 12 } };

let stop: (() => void) | null = null;
afterEach(() => stop?.());

function open(client: FakeClient, storage = new MemStorage(), canRecord = true) {
  const s = new ScorerSession(client, 'm1', storage, canRecord);
  stop = s.start();
  let last: SessionView = s.view();
  s.subscribe((v) => (last = v));
  return { s, view: () => last, storage };
}

describe('scorer session', () => {
  test('a step shows only after the server acknowledged it', async () => {
    const client = new FakeClient(SETUP);
    const { s, view: v } = open(client);
    await settle();
    expect(v().feed?.version).toBe(0);
    s.submit({ shot: { call: { made: true }, pocketed: 2 } });
    expect(v().queued).toHaveLength(1);
    await settle();
    expect(v().queued).toHaveLength(0);
    expect(v().feed?.state.score).toEqual([12, 10]);
  });

  test('offline: three steps queue ("N queued"), then replay in order once the client is live again', async () => {
    const client = new FakeClient(SETUP);
    const storage = new MemStorage();
    const { s, view: v } = open(client, storage);
    await settle();
    client.setStatus('offline');
    s.submit({ shot: { call: { made: true }, pocketed: 1 } });
    s.submit({ shot: { call: { made: true }, pocketed: 1 } });
    s.submit({ shot: { call: { made: false } } });
    await settle();
    expect(v().status).toBe('offline');
    expect(v().queued).toHaveLength(3);
    expect(v().feed?.state.score).toEqual([10, 10]); // nothing applied without an ack
    client.setStatus('live');
    await settle();
    await settle();
    expect(v().queued).toHaveLength(0);
    expect(client.version).toBe(3);
    expect(v().feed?.state.score).toEqual([12, 10]);
    expect(v().feed?.state.turn).toBe('B');
  });

  test('the outbox survives a reload: a new session on the same storage sends what was queued', async () => {
    const client = new FakeClient(SETUP);
    client.setStatus('offline');
    const first = open(client);
    await settle();
    first.s.submit({ shot: { call: 'safety' } });
    first.s.stop();
    client.setStatus('live');
    const second = open(client, first.storage);
    await settle();
    await settle();
    expect(second.view().queued).toHaveLength(0);
    expect(client.version).toBe(1);
    expect(second.view().feed?.state.turn).toBe('B');
  });

  test('stale: another scorer recorded first — nothing is overwritten and the scorer is told', async () => {
    const client = new FakeClient(SETUP);
    const { s, view: v } = open(client);
    await settle();
    client.setStatus('offline');
    s.submit({ shot: { call: { made: true }, pocketed: 1 } });
    client.external({ shot: { call: 'safety' } }); // the other device: A plays safe
    client.setStatus('live');
    await settle();
    await settle();
    expect(client.version).toBe(1);
    expect(v().feed?.state.turn).toBe('B');
    expect(v().notice).toMatchObject({ kind: 'stale', steps: [{ shot: { call: { made: true }, pocketed: 1 } }] });
    expect(v().queued).toHaveLength(0);
  });

  test('a refused step shows the server message', async () => {
    const client = new FakeClient({ discipline: 'rotation', players: ['Ann', 'Bob'], start: { turn: 'A', onTable: [3, 4] } });
    const { s, view: v } = open(client);
    await settle();
    s.submit({ shot: { firstContact: 3, pocketed: [9] } });
    await settle();
    expect(v().notice).toMatchObject({ kind: 'refused', error: { code: 'ball-not-on-table' } });
    expect(client.version).toBe(0);
  });

  test('undo: an unsent step is taken out locally; otherwise an undo step is recorded', async () => {
    const client = new FakeClient(SETUP);
    const { s, view: v } = open(client);
    await settle();
    client.setStatus('offline');
    s.submit({ shot: { call: 'safety' } });
    s.undo();
    expect(v().queued).toHaveLength(0);
    client.setStatus('live');
    s.submit({ shot: { call: 'safety' } });
    await settle();
    expect(v().feed?.state.turn).toBe('B');
    s.undo();
    await settle();
    expect(v().feed?.state.turn).toBe('A');
    expect(client.version).toBe(2);
  });

  test('read-only without a token: nothing is queued', async () => {
    const client = new FakeClient(SETUP);
    const { s, view: v } = open(client, new MemStorage(), false);
    await settle();
    expect(s.submit({ shot: { call: 'safety' } })).toBeNull();
    expect(v().token).toEqual({ status: 'missing', paste: 'idle' });
    expect([v().canRecord, v().canSend, v().notice]).toEqual([false, false, null]);
  });

  test('a timed-out send is retried on the timer while live', async () => {
    vi.useFakeTimers();
    try {
      const client = new FakeClient(SETUP);
      let fail = true;
      const real = client.record.bind(client);
      client.record = async (req) => {
        if (fail) {
          fail = false;
          throw new Error('timeout');
        }
        return real(req);
      };
      const { s, view: v } = open(client);
      await vi.advanceTimersByTimeAsync(1);
      s.submit({ shot: { call: 'safety' } });
      await vi.advanceTimersByTimeAsync(1);
      expect(v().queued).toHaveLength(1);
      await vi.advanceTimersByTimeAsync(4500);
      expect(v().queued).toHaveLength(0);
      expect(client.version).toBe(1);
    } finally {
      vi.useRealTimers();
    }
  });

  test('offline, the console follows the queued steps: a queued breaking foul shows the choice, marked unconfirmed', async () => {
    const client = new FakeClient({ discipline: '14-1', players: ['Ann', 'Bob'] });
    const { s, view: v } = open(client);
    await settle();
    client.setStatus('offline');
    s.submit({ shot: { call: 'safety', breakRails: { objectBalls: 1, cueBall: true } } });
    expect(v().feed?.state.awaiting).toBeNull(); // nothing confirmed
    expect(v().shown).toMatchObject({ pending: 1, projected: 1, stop: null, state: { awaiting: 'break-foul-choice', score: [-2, 0], turn: 'B' } });
    s.submit({ choice: 'rebreak' });
    expect(v().shown?.state).toMatchObject({ awaiting: null, breakShot: true, turn: 'A', score: [-2, 0] });
    s.undo(); // a queued step: simply dropped from the outbox
    expect(v().queued).toHaveLength(1);
    expect(v().shown?.state.awaiting).toBe('break-foul-choice');
    client.setStatus('live');
    await settle();
    await settle();
    expect(v().feed?.state.awaiting).toBe('break-foul-choice');
    expect(v().shown).toMatchObject({ pending: 0, projected: 0 });
    expect(v().shown?.state).toEqual(v().feed?.state);
  });

  test('while an ack arrives (state pushed before the entry leaves the outbox) no step is shown twice', async () => {
    const client = new FakeClient(SETUP);
    const { s } = open(client);
    await settle();
    const scores: number[] = [];
    s.subscribe((x) => {
      if (x.shown) scores.push(x.shown.state.score[0]);
    });
    s.submit({ shot: { call: { made: true }, pocketed: 2 } });
    await settle();
    await settle();
    expect(client.version).toBe(1);
    expect(new Set(scores)).toEqual(new Set([10, 12]));
  });

  test('offline undo of a confirmed step: the console shows the table before it (it saw that state confirmed)', async () => {
    const client = new FakeClient(SETUP);
    const { s, view: v } = open(client);
    await settle();
    s.submit({ shot: { call: { made: true }, pocketed: 2 } });
    await settle();
    s.submit({ shot: { call: 'safety' } });
    await settle();
    expect(v().feed?.version).toBe(2);
    client.setStatus('offline');
    s.undo(); // nothing unsent: an undo step is queued
    expect(v().queued).toHaveLength(1);
    expect(v().shown).toMatchObject({ stop: null, state: { turn: 'A', score: [12, 10], run: 2 } });
    s.undo(); // the queued undo itself is dropped
    expect(v().queued).toHaveLength(0);
    expect(v().shown?.state.turn).toBe('B');
  });

  test('after a reload the state before a confirmed step is unknown: the console says so instead of guessing', async () => {
    const client = new FakeClient(SETUP);
    client.external({ shot: { call: 'safety' } });
    client.setStatus('offline');
    const { s, view: v } = open(client);
    await settle();
    s.undo();
    expect(v().shown?.stop).toMatchObject({ code: 'unknown-undo' });
    expect(v().shown?.state).toEqual(v().feed?.state);
  });
});
