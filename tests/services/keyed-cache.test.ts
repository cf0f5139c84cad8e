/**
 * The server's one caching primitive (server/matches/keyed-cache.ts), used by the live-match cache and the file
 * store: one load per key shared by concurrent callers, failed or empty loads forgotten, tasks on one key in
 * call order (a failure does not block the next), idle eviction that spares busy and claimed keys.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { KeyedCache } from '../../server/matches/keyed-cache';

afterEach(() => {
  vi.useRealTimers();
});

describe('KeyedCache', () => {
  it('shares one load between concurrent callers and forgets loads that fail or find nothing', async () => {
    const loads: string[] = [];
    let fail = true;
    const cache = new KeyedCache<{ key: string }>(async (key) => {
      loads.push(key);
      if (key === 'missing') return null;
      if (key === 'flaky' && fail) throw new Error('store down');
      return { key };
    });
    const [a, b] = await Promise.all([cache.get('m1'), cache.get('m1')]);
    expect(a).toBe(b);
    expect(await cache.get('m1')).toBe(a);
    expect(await cache.get('missing')).toBeNull();
    expect(await cache.get('missing')).toBeNull();
    await expect(cache.get('flaky')).rejects.toThrow('store down');
    fail = false;
    expect(await cache.get('flaky')).toEqual({ key: 'flaky' });
    expect(loads).toEqual(['m1', 'missing', 'missing', 'flaky', 'flaky']);
    expect(cache.peek('never')).toBeUndefined();
  });

  it('runs the tasks of one key one after another, in call order, past a failed task', async () => {
    const cache = new KeyedCache<string>(async () => 'v');
    const order: string[] = [];
    let openGate!: () => void;
    const gate = new Promise<void>((r) => (openGate = r));
    const task =
      (name: string, opts: { wait?: Promise<void>; fail?: boolean } = {}) =>
      async () => {
        await opts.wait;
        order.push(name);
        if (opts.fail) throw new Error(name);
        return name;
      };
    const all = Promise.allSettled([
      cache.serial('m1', task('first', { wait: gate })),
      cache.serial('m1', task('second', { fail: true })),
      cache.serial('m1', task('third')),
    ]);
    // Another key does not wait for m1's first task, which is still held at its gate.
    expect(await cache.serial('m2', task('other key'))).toBe('other key');
    expect(order).toEqual(['other key']);
    openGate();
    const results = await all;
    expect(order).toEqual(['other key', 'first', 'second', 'third']);
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
  });

  it('evicts values idle for the given time, but not one with a task queued or one the caller keeps', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    const cache = new KeyedCache<{ key: string }>(async (key) => ({ key }));
    for (const k of ['idle', 'busy', 'kept', 'fresh']) await cache.get(k);
    let release!: () => void;
    const busy = cache.serial('busy', () => new Promise<void>((r) => (release = r)));
    vi.setSystemTime(Date.now() + 60_000);
    await cache.get('fresh');
    const closed: string[] = [];
    cache.evictIdle(
      30_000,
      (k) => k === 'kept',
      (v) => closed.push(v.key),
    );
    await Promise.resolve();
    expect(cache.peek('idle')).toBeUndefined();
    expect(closed).toEqual(['idle']);
    for (const k of ['busy', 'kept', 'fresh']) expect(cache.peek(k)).toBeDefined();
    release();
    await busy;
    await cache.drain();
    expect(cache.peek('busy')).toBeDefined(); // just worked on: touched, not idle
    expect((await cache.clear()).map((v) => v.key).sort()).toEqual(['busy', 'fresh', 'kept']);
  });
});
