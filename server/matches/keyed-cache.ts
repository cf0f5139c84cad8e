/**
 * The one caching primitive of the server: per key (a match id), a value loaded at most once at a time
 * and a serial queue of tasks. Used by the live-match cache (server/matches/live-cache.ts) for the decided matches
 * and by the event service (server/events/service.ts) for the events' documents, so loading, serialising and idle
 * eviction are written once.
 */

import { systemClock, type Clock } from '../clock';

interface Slot<T> {
  value: Promise<T | null>;
  /** Last time the value was read, set or worked on, ms since the epoch (the cache's clock). */
  touched: number;
}

/** Values by key, loaded on first use; tasks on one key run one after another, in call order. */
export class KeyedCache<T> {
  private readonly slots = new Map<string, Slot<T>>();
  private readonly chains = new Map<string, Promise<unknown>>();

  /**
   * @param load reads the value of a key; null means "no such key" (not cached, asked again next time).
   * @param clock what idleness is measured with (default the wall clock).
   */
  constructor(
    private readonly load: (key: string) => Promise<T | null>,
    private readonly clock: Clock = systemClock,
  ) {}

  /**
   * The value of `key`, loading it on first use (with `load`, default the cache's loader). Concurrent
   * callers share one load; a load that fails or finds nothing is forgotten, so the next call tries again.
   */
  get(key: string, load: (key: string) => Promise<T | null> = this.load): Promise<T | null> {
    const slot = this.slots.get(key);
    if (slot) {
      slot.touched = this.clock.now();
      return slot.value;
    }
    const value = load(key);
    this.slots.set(key, { value, touched: this.clock.now() });
    const forget = () => {
      if (this.slots.get(key)?.value === value) this.slots.delete(key);
    };
    value.then((v) => {
      if (v === null) forget();
    }, forget);
    return value;
  }

  /** The value of `key` if it is loaded or loading, without loading it. */
  peek(key: string): Promise<T | null> | undefined {
    return this.slots.get(key)?.value;
  }

  /** Keep `value` as the value of `key` (made here, not loaded). */
  set(key: string, value: T): void {
    this.slots.set(key, { value: Promise.resolve(value), touched: this.clock.now() });
  }

  /** Forget the value of `key` (a queued task still runs). */
  delete(key: string): void {
    this.slots.delete(key);
  }

  /** Mark `key` as in use now (eviction counts idleness from here). */
  touch(key: string): void {
    const slot = this.slots.get(key);
    if (slot) slot.touched = this.clock.now();
  }

  /**
   * Run `task` after every earlier task on `key`; a failed task does not block the next one.
   * @returns what `task` returns (or its rejection).
   */
  serial<R>(key: string, task: () => Promise<R>): Promise<R> {
    const prev = this.chains.get(key) ?? Promise.resolve();
    const next = prev.then(task, task);
    const tail = next.then(
      () => undefined,
      () => undefined,
    );
    this.chains.set(key, tail);
    void tail.then(() => {
      if (this.chains.get(key) === tail) this.chains.delete(key);
      this.touch(key);
    });
    return next;
  }

  /**
   * Forget the values untouched for `idleMs` with no task queued that `keep` does not claim; `onEvict`
   * hears each forgotten value (to close what it holds).
   */
  evictIdle(idleMs: number, keep: (key: string) => boolean = () => false, onEvict?: (value: T) => void): void {
    const cutoff = this.clock.now() - idleMs;
    for (const [key, slot] of this.slots) {
      if (slot.touched >= cutoff || this.chains.has(key) || keep(key)) continue;
      this.slots.delete(key);
      if (onEvict)
        void slot.value.then(
          (v) => v !== null && onEvict(v),
          () => undefined,
        );
    }
  }

  /** Wait until every task queued so far has settled. */
  async drain(): Promise<void> {
    await Promise.allSettled([...this.chains.values()]);
  }

  /** Every loaded value (loads that failed or found nothing left out), then forget them all. */
  async clear(): Promise<T[]> {
    const slots = [...this.slots.values()];
    this.slots.clear();
    const values: T[] = [];
    for (const slot of slots) {
      const v = await slot.value.catch(() => null);
      if (v !== null) values.push(v);
    }
    return values;
  }
}
