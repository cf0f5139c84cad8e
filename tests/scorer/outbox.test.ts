/**
 * The outbox never loses a step: persisted before sending, replayed in order with the same event ids after a
 * reload or a dropped connection, removed only on the server's answer; a refusal drops the refused step and
 * the ones entered after it, and says so.
 */
import { describe, expect, test } from 'vitest';
import type { RecordAck } from '../../shared/protocol/wire';
import type { Step } from '../../shared/protocol/steps';
import { Outbox, outboxKey, type OutboxEntry, type OutboxNotice } from '../../web/src/lib/outbox';

class MemStorage {
  readonly m = new Map<string, string>();
  getItem(k: string) {
    return this.m.get(k) ?? null;
  }
  setItem(k: string, v: string) {
    this.m.set(k, v);
  }
  removeItem(k: string) {
    this.m.delete(k);
  }
}

/** A fake server: applies steps whose expectedVersion matches, dedups by step id, refuses stale ones. */
class FakeServer {
  log: OutboxEntry[] = [];
  online = true;
  refuseNext: string | null = null;
  /** A server of another build: refuses every record with `protocol-mismatch`. */
  otherBuild = false;
  /** The store's answer to the next records: `store-unavailable` (nothing written) or `outcome-unknown` (written, unconfirmed). */
  store: { code: 'store-unavailable' | 'outcome-unknown'; times: number } | null = null;
  send = async (e: OutboxEntry): Promise<RecordAck> => {
    if (!this.online) throw new Error('offline');
    if (this.store && this.store.times > 0) {
      this.store.times--;
      if (this.store.code === 'outcome-unknown' && !this.log.some((x) => x.stepId === e.stepId)) this.log.push(e);
      return { ok: false, error: { code: this.store.code, message: 'retry with the same stepId' } };
    }
    if (this.otherBuild)
      return { ok: false, error: { code: 'protocol-mismatch', message: 'this page is from an older version of cuecast: reload the page', field: 'protocol' } };
    const ok = (duplicate?: boolean): RecordAck => ({
      ok: true,
      matchId: e.matchId,
      version: this.log.length,
      state: {} as never,
      stats: {} as never,
      ...(duplicate ? { duplicate } : {}),
    });
    if (this.log.some((x) => x.stepId === e.stepId)) return ok(true);
    if (e.expectedVersion !== this.log.length) {
      return {
        ok: false,
        error: { code: 'stale', message: `expectedVersion ${e.expectedVersion}, log at ${this.log.length}` },
        currentVersion: this.log.length,
      };
    }
    if (this.refuseNext) {
      const message = this.refuseNext;
      this.refuseNext = null;
      return { ok: false, error: { code: 'inconsistent-shot', message } };
    }
    this.log.push(e);
    return ok();
  };
}

const miss: Step = { shot: { call: { made: false } } };
const made = (n: number): Step => ({ shot: { call: { made: true }, pocketed: n } });

describe('outbox', () => {
  test('each step gets a unique id and chained expected versions; acked steps leave the outbox', async () => {
    const server = new FakeServer();
    const box = new Outbox('m1', new MemStorage(), server.send);
    const a = box.enqueue(made(1), 0);
    const b = box.enqueue(made(2), 0);
    expect(a.stepId).not.toBe(b.stepId);
    expect([a.expectedVersion, b.expectedVersion]).toEqual([0, 1]);
    await box.flush();
    expect(box.size).toBe(0);
    expect(server.log.map((e) => e.stepId)).toEqual([a.stepId, b.stepId]);
    // the next step continues from the acknowledged version even before a state push arrives
    expect(box.enqueue(miss, 0).expectedVersion).toBe(2);
  });

  for (const code of ['store-unavailable', 'outcome-unknown'] as const) {
    test(`a store answer (${code}) keeps the step and those after it; sent again with the same ids, each is logged once`, async () => {
      const storage = new MemStorage();
      const server = new FakeServer();
      server.store = { code, times: 2 };
      const box = new Outbox('m1', storage, server.send);
      const ids = [box.enqueue(made(1), 0), box.enqueue(miss, 0)].map((e) => e.stepId);
      const events: OutboxNotice[] = [];
      box.on((e) => events.push(e));
      await box.flush();
      await box.flush();
      expect(events).toEqual([expect.objectContaining({ kind: 'unsent', reason: code }), expect.objectContaining({ kind: 'unsent', reason: code })]);
      expect(box.size).toBe(2);
      expect(JSON.parse(storage.getItem(outboxKey('m1'))!)).toHaveLength(2);
      await box.flush(); // the store answers again
      expect(box.size).toBe(0);
      expect(server.log.map((e) => e.stepId)).toEqual(ids);
    });
  }

  test('a server of another build (protocol-mismatch) judges nothing: the steps stay for the reloaded page', async () => {
    const storage = new MemStorage();
    const server = new FakeServer();
    server.otherBuild = true;
    const box = new Outbox('m1', storage, server.send);
    const ids = [box.enqueue(made(1), 0), box.enqueue(miss, 0)].map((e) => e.stepId);
    const events: OutboxNotice[] = [];
    box.on((e) => events.push(e));
    await box.flush();
    expect(events).toEqual([expect.objectContaining({ kind: 'unsent', reason: 'protocol-mismatch' })]);
    expect(box.size).toBe(2);
    expect(box.sending).toBeNull();
    expect(JSON.parse(storage.getItem(outboxKey('m1'))!)).toHaveLength(2);

    server.otherBuild = false; // the page was reloaded from the server's build
    const reloaded = new Outbox('m1', storage, server.send);
    await reloaded.flush();
    expect(server.log.map((e) => e.stepId)).toEqual(ids);
    expect(reloaded.size).toBe(0);
  });

  test('offline: steps queue, survive a reload, and replay in order with the same ids exactly once', async () => {
    const storage = new MemStorage();
    const server = new FakeServer();
    server.online = false;
    const box = new Outbox('m1', storage, server.send);
    const ids = [box.enqueue(made(1), 0), box.enqueue(miss, 0), box.enqueue(made(3), 0)].map((e) => e.stepId);
    const events: OutboxNotice[] = [];
    box.on((e) => events.push(e));
    await box.flush();
    expect(box.size).toBe(3);
    expect(events[0]).toMatchObject({ kind: 'unsent', reason: 'offline' });
    expect(JSON.parse(storage.getItem(outboxKey('m1'))!)).toHaveLength(3);

    const reloaded = new Outbox('m1', storage, server.send); // page reload
    expect(reloaded.entries.map((e) => e.stepId)).toEqual(ids);
    server.online = true;
    await reloaded.flush();
    await reloaded.flush(); // a second replay sends nothing
    expect(server.log.map((e) => e.stepId)).toEqual(ids);
    expect(storage.getItem(outboxKey('m1'))).toBeNull();
  });

  test('a lost ack is retried with the same id and the server answers duplicate: applied once', async () => {
    const server = new FakeServer();
    let lose = true;
    const send = async (e: OutboxEntry) => {
      const ack = await server.send(e);
      if (lose) {
        lose = false;
        throw new Error('timeout');
      }
      return ack;
    };
    const box = new Outbox('m1', new MemStorage(), send);
    box.enqueue(made(1), 0);
    await box.flush();
    expect(box.size).toBe(1);
    const acks: OutboxNotice[] = [];
    box.on((e) => acks.push(e));
    await box.flush();
    expect(box.size).toBe(0);
    expect(server.log).toHaveLength(1);
    expect(acks[0]).toMatchObject({ kind: 'acked', ack: { duplicate: true } });
  });

  test('stale: another scorer recorded first — the queued steps are dropped and reported, never forced', async () => {
    const server = new FakeServer();
    server.log.push({ matchId: 'm1', stepId: 'other-device', expectedVersion: 0, step: miss, queuedAt: 0 });
    const box = new Outbox('m1', new MemStorage(), server.send);
    const a = box.enqueue(made(1), 0);
    const b = box.enqueue(miss, 0);
    const events: OutboxNotice[] = [];
    box.on((e) => events.push(e));
    await box.flush();
    expect(server.log).toHaveLength(1);
    expect(box.size).toBe(0);
    expect(events).toEqual([
      expect.objectContaining({ kind: 'refused', entry: a, error: expect.objectContaining({ code: 'stale' }), currentVersion: 1, dropped: [b] }),
    ]);
  });

  test('a rules refusal keeps the server message and drops later steps', async () => {
    const server = new FakeServer();
    server.refuseNext = 'shot.pocketed: 16 balls';
    const box = new Outbox('m1', new MemStorage(), server.send);
    box.enqueue(made(1), 0);
    box.enqueue(miss, 0);
    const events: OutboxNotice[] = [];
    box.on((e) => events.push(e));
    await box.flush();
    expect(events[0]).toMatchObject({ kind: 'refused', error: { message: 'shot.pocketed: 16 balls' } });
    expect(box.size).toBe(0);
  });

  test('undo of an unsent step takes it out; an entry in flight stays', async () => {
    let release: (a: RecordAck) => void = () => {};
    const send = (e: OutboxEntry) =>
      new Promise<RecordAck>((res) => {
        release = res;
        void e;
      });
    const box = new Outbox('m1', new MemStorage(), send);
    const a = box.enqueue(made(1), 0);
    const b = box.enqueue(miss, 0);
    expect(box.popUnsent()).toBe(b);
    const run = box.flush();
    expect(box.sending).toBe(a);
    expect(box.popUnsent()).toBeNull();
    release({ ok: true, matchId: 'm1', version: 1, state: {} as never, stats: {} as never });
    await run;
    expect(box.size).toBe(0);
  });

  test('garbage in storage is ignored, entries of another match too', () => {
    const storage = new MemStorage();
    storage.setItem(outboxKey('m1'), '{not json');
    expect(new Outbox('m1', storage, new FakeServer().send).size).toBe(0);
    storage.setItem(outboxKey('m1'), JSON.stringify([{ matchId: 'm2', stepId: 'x', expectedVersion: 0, step: miss }, 5]));
    expect(new Outbox('m1', storage, new FakeServer().send).size).toBe(0);
  });

  test('steps queued by a page before protocol 4 (saved with `eventId`) are read as stepId and sent after the reload', async () => {
    const storage = new MemStorage();
    storage.setItem(outboxKey('m1'), JSON.stringify([{ matchId: 'm1', eventId: 'saved-by-v3', expectedVersion: 0, step: made(1), queuedAt: 1 }]));
    const server = new FakeServer();
    const box = new Outbox('m1', storage, server.send);
    expect(box.size).toBe(1);
    await box.flush();
    expect(server.log.map((e) => e.stepId)).toEqual(['saved-by-v3']);
    expect(server.log[0]).not.toHaveProperty('eventId');
  });

  test('resendNow: an attempt lost on a dead connection is sent again at once with the same id; its late answer is ignored', async () => {
    const server = new FakeServer();
    const sent: string[] = [];
    let dead = true;
    let lateAnswer: (a: RecordAck) => void = () => {};
    const send = (e: OutboxEntry): Promise<RecordAck> => {
      sent.push(e.stepId);
      if (dead) return new Promise<RecordAck>((res) => (lateAnswer = res)); // never answered (until we say so)
      return server.send(e);
    };
    const box = new Outbox('m1', new MemStorage(), send);
    const a = box.enqueue(made(1), 0);
    const b = box.enqueue(miss, 0);
    const run = box.flush();
    expect(box.sending).toBe(a);
    dead = false;
    box.resendNow();
    await run;
    expect(sent).toEqual([a.stepId, a.stepId, b.stepId]);
    expect(server.log.map((e) => e.stepId)).toEqual([a.stepId, b.stepId]);
    lateAnswer({ ok: false, error: { code: 'stale', message: 'late' }, currentVersion: 0 }); // ignored
    await Promise.resolve();
    expect(box.size).toBe(0);
    box.resendNow(); // nothing in flight: nothing happens
    expect(sent).toHaveLength(3);
  });

  test('a sender that answers synchronously (and a flush from inside it) sends each entry once', async () => {
    const server = new FakeServer();
    const sent: string[] = [];
    const send = (e: OutboxEntry): Promise<RecordAck> => {
      sent.push(e.stepId);
      void box.flush(); // a state push arriving inside the send asks for a flush
      return server.send(e);
    };
    const box = new Outbox('m1', new MemStorage(), send);
    const a = box.enqueue(made(1), 0);
    await box.flush();
    expect(sent).toEqual([a.stepId]);
    expect(box.size).toBe(0);
  });
});
