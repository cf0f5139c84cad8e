/**
 * Replay checked against checkpoints (issue 16 item 7; server/matches/live-cache.ts), through the match service
 * over the in-memory store (that every store keeps a checkpoint as given is the store-port contract,
 * tests/server/store-port.test.ts). Every checkpoint stores a hash of the state; a load that replays the log past a
 * checkpoint compares:
 * - a checkpoint of another rules version whose state the replay reproduces: no warning, the replay's match;
 * - one whose state the replay does not reproduce (its hash disagrees): a warning with the match id and the rules
 *   versions, and the checkpoint wins (the match goes on from its state, the later steps applied);
 * - a checkpoint of this rules version whose stored hash disagrees with the replay of an undo reaching past the
 *   kept steps: the same warning, the checkpoint's state kept.
 */
import { Writable } from 'node:stream';
import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import { replay, RULES_VERSION, statsOf, view, type Step } from '../../shared/index';
import { parseSetup } from '../../server/protocol/setup-schemas';
import { CHECKPOINT_EVERY, LiveCache } from '../../server/matches/live-cache';
import { MatchService } from '../../server/matches/service';
import { stateHashOf } from '../../server/matches/state-hash';
import type { Checkpoint } from '../../server/storage/ports';
import { LONG_SETUP, plausibleSteps } from '../helpers/server';
import { MemoryStore } from '../../server/storage/memory-store';

const setup = parseSetup(LONG_SETUP);

/** A logger that keeps every warning it hears, parsed. */
function listening() {
  const heard: Record<string, unknown>[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _enc, done) {
      heard.push(JSON.parse(chunk.toString()) as Record<string, unknown>);
      done();
    },
  });
  return { log: pino({ level: 'warn' }, sink), heard };
}

describe('replay checked against the checkpoint', () => {
  const fixture = { store: new MemoryStore() };

  const service = (log = pino({ level: 'silent' })) => {
    const live = new LiveCache({ store: fixture.store, shared: false, log });
    return new MatchService({ store: fixture.store, log, shared: false, onAppended: () => undefined, live });
  };

  /** A match with `steps` recorded and its checkpoint at CHECKPOINT_EVERY stored; returns its id, token and checkpoint. */
  async function recorded(steps: readonly Step[]) {
    const svc = service();
    const m = await svc.create(LONG_SETUP);
    for (const [i, step] of steps.entries()) {
      const r = await svc.record(m.id, m.scorerToken, { stepId: `e${i + 1}`, expectedVersion: i, step });
      if (!r.ok) throw new Error(`step ${i + 1} refused: ${JSON.stringify(r.error)}`);
    }
    // Stored by the append of step CHECKPOINT_EVERY, with it (tests/server/step-checkpoint.test.ts).
    const ck = (await fixture.store.open(m.id, 0))?.checkpoint;
    if (ck?.version !== CHECKPOINT_EVERY) throw new Error(`no checkpoint stored at ${CHECKPOINT_EVERY} (found ${ck?.version})`);
    return { id: m.id, token: m.scorerToken, ck };
  }

  /** `ck` with player A's score and the score sheet's last total moved by `delta`, its hash that of the changed state. */
  function altered(ck: Checkpoint, delta: number, rulesVersion: number): Checkpoint {
    const core = { ...ck.core, score: [ck.core.score[0] + delta, ck.core.score[1]] as [number, number] };
    const out = { ...ck, rulesVersion, core };
    return { ...out, hash: stateHashOf(out.depth, out.core, out.stats) };
  }

  it('every checkpoint stores the hash of its state', async () => {
    const { ck } = await recorded(plausibleSteps(CHECKPOINT_EVERY + 5, LONG_SETUP, { seed: 31, undoRate: 0.03 }));
    expect(ck.rulesVersion).toBe(RULES_VERSION);
    expect(ck.hash).toMatch(/^[0-9a-f]{64}$/);
    expect(ck.hash).toBe(stateHashOf(ck.depth, ck.core, ck.stats));
  });

  it('a checkpoint of an older rules version that the replay reproduces: no warning, the replayed match', async () => {
    const steps = plausibleSteps(CHECKPOINT_EVERY + 40, LONG_SETUP, { seed: 32, undoRate: 0.03 });
    const { id, ck } = await recorded(steps);
    await fixture.store.saveCheckpoint(id, { ...ck, rulesVersion: RULES_VERSION - 1 });
    const { log, heard } = listening();
    const cur = (await service(log).current(id))!;
    expect(heard).toEqual([]);
    const whole = replay(setup, steps);
    expect(cur.snapshot.state).toEqual(view(whole));
    expect(cur.snapshot.stats).toEqual(statsOf(whole));
  });

  it('a checkpoint whose hash the replay does not reproduce: logged with the match id and rules version, and the checkpoint wins', async () => {
    const steps = plausibleSteps(CHECKPOINT_EVERY + 40, LONG_SETUP, { seed: 33, undoRate: 0.03 });
    const { id, token, ck } = await recorded(steps);
    // As if the engine that wrote it (an older rules version) had decided some step differently: 7 more points for A.
    await fixture.store.saveCheckpoint(id, altered(ck, 7, RULES_VERSION - 1));
    const { log, heard } = listening();
    const svc = service(log);
    const cur = (await svc.current(id))!;
    expect(heard).toHaveLength(1);
    expect(heard[0]).toMatchObject({
      level: 40,
      msg: 'replay disagrees with the checkpoint; the checkpoint wins',
      matchId: id,
      rulesVersion: RULES_VERSION,
      checkpointRulesVersion: RULES_VERSION - 1,
      version: CHECKPOINT_EVERY,
    });
    // The checkpoint's state, with the steps after it applied: A keeps the 7 points.
    const whole = view(replay(setup, steps));
    expect(cur.snapshot.version).toBe(steps.length);
    expect(cur.snapshot.state.score).toEqual([whole.score[0] + 7, whole.score[1]]);
    // A fresh checkpoint is written at once under the current rules, holding the state that won, with its hash.
    const deadline = Date.now() + 10_000;
    let now: Checkpoint | null | undefined;
    while ((now = (await fixture.store.open(id, 0))?.checkpoint)?.rulesVersion !== RULES_VERSION) {
      if (Date.now() > deadline) throw new Error('no new checkpoint stored');
      await new Promise((r) => setTimeout(r, 20));
    }
    expect(now!.version).toBe(steps.length);
    expect(now!.core.score).toEqual(cur.snapshot.state.score);
    expect(now!.hash).toBe(stateHashOf(now!.depth, now!.core, now!.stats));
    // The match goes on from there: a new step is recorded on the checkpoint's state.
    const next = await svc.record(id, token, { stepId: 'next', expectedVersion: steps.length, step: { shot: { call: 'safety' } } });
    expect(next.ok && next.state.score).toEqual(cur.snapshot.state.score);
  });

  it('this rules version, a stored hash that disagrees: an undo past the kept steps replays, logs it, keeps the checkpoint', async () => {
    const steps = plausibleSteps(CHECKPOINT_EVERY, LONG_SETUP, { seed: 34, undoRate: 0 });
    const { id, token, ck } = await recorded(steps);
    await fixture.store.saveCheckpoint(id, altered(ck, 5, RULES_VERSION));
    const { log, heard } = listening();
    const svc = service(log);
    // Loaded from the checkpoint (this rules version): its state as stored, nothing replayed yet.
    const whole = view(replay(setup, steps));
    expect((await svc.current(id))!.snapshot.state.score).toEqual([whole.score[0] + 5, whole.score[1]]);
    expect(heard).toEqual([]);
    // An undo reaches before the checkpoint: the whole log is replayed, and disagrees with the stored hash.
    await svc.record(id, token, { stepId: 'u1', expectedVersion: steps.length, step: { undo: true } });
    expect(heard).toHaveLength(1);
    expect(heard[0]).toMatchObject({ matchId: id, rulesVersion: RULES_VERSION, checkpointRulesVersion: RULES_VERSION, version: CHECKPOINT_EVERY });
    expect((await svc.current(id))!.snapshot.state.score).toEqual([whole.score[0] + 5, whole.score[1]]);
  });
});
