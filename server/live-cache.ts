/**
 * The live-match cache: every loaded match in memory, over whichever store the server runs on (Redis or
 * files). Per match it keeps the engine's current `Match`, the log, the eventId → version index and the
 * latest snapshot; it loads a match once (replaying its log), runs all work on one match through a serial
 * queue, catches up with steps other instances appended (shared stores), and forgets idle matches. It
 * decides nothing: the match service (server/matches.ts) judges each step and hands the accepted ones here.
 *
 * Only this module reads or changes a `Live`'s log and index, so what a loaded match keeps (today its whole
 * log) can change without touching the service.
 */
import { applyStep, replay, statsOf, view, type Match, type Snapshot, type StatePush, type Step } from '../shared/index';
import { KeyedCache } from './keyed-cache';
import type { MatchRecord, MatchStore, StoredEvent } from './store/types';

/** A loaded match. The service reads `record` and `match`; everything else belongs to this module. */
export interface Live {
  readonly id: string;
  readonly record: MatchRecord;
  /** The engine's match at the latest version. */
  match: Match;
  /** The log, versions 1…n (`events.length` is the version). */
  events: StoredEvent[];
  eventIds: Map<string, number>;
  /** Snapshot of the latest version, built on demand. */
  snap: Snapshot | null;
  /** A catch-up queued and not started yet: later callers share it. */
  pendingRefresh: Promise<void> | null;
}

/** Match ids the server accepts: anything else is unknown without asking the store. */
const SAFE_ID = /^[A-Za-z0-9_-]{1,64}$/;

/** Snapshot of `match` as match `id` at `version`. */
export function snapshotOf(id: string, version: number, match: Match): Snapshot {
  return { matchId: id, version, state: view(match), stats: statsOf(match) };
}

export interface LiveCacheOptions {
  store: MatchStore;
  /** True when other instances may write the same store (Redis): reads catch up with the log first. */
  shared: boolean;
}

/** Loaded matches by id over `store`. */
export class LiveCache {
  private readonly cache: KeyedCache<Live>;
  private readonly store: MatchStore;
  readonly shared: boolean;

  constructor(opts: LiveCacheOptions) {
    this.store = opts.store;
    this.shared = opts.shared;
    this.cache = new KeyedCache((id) => this.load(id));
  }

  /** The loaded match `id` (loading it from the store on first use), or null when unknown. */
  get(id: string): Promise<Live | null> {
    return SAFE_ID.test(id) ? this.cache.get(id) : Promise.resolve(null);
  }

  /** The loaded match brought up to the store's latest version (shared stores), or null when unknown. */
  async fresh(id: string): Promise<Live | null> {
    const live = await this.get(id);
    if (live && this.shared) await this.refresh(live);
    return live;
  }

  /** Keep a match just created here (version 0) without reading it back. */
  add(record: MatchRecord, match: Match, snapshot: Snapshot): Live {
    const live: Live = { id: record.id, record, match, events: [], eventIds: new Map(), snap: snapshot, pendingRefresh: null };
    this.cache.set(record.id, live);
    return live;
  }

  /** Run `task` after every earlier task on the same match; a failed task does not block the next. */
  serial<R>(live: Live, task: () => Promise<R>): Promise<R> {
    return this.cache.serial(live.id, task);
  }

  /** Latest version of a loaded match. */
  version(live: Live): number {
    return live.events.length;
  }

  /** Version at which `eventId` was recorded, or undefined. */
  versionOf(live: Live, eventId: string): number | undefined {
    return live.eventIds.get(eventId);
  }

  /** The step recorded at `version` (1…version(live)). */
  stepAt(live: Live, version: number): Step {
    return live.events[version - 1]!.step;
  }

  /** The log, versions 1…n (a copy). */
  log(live: Live): StoredEvent[] {
    return live.events.slice();
  }

  /** Snapshot at the latest version (built once per version). */
  snapshot(live: Live): Snapshot {
    const version = live.events.length;
    if (live.snap?.version !== version) live.snap = snapshotOf(live.id, version, live.match);
    return live.snap;
  }

  /** Snapshot at an earlier `version` (1…version(live)), replayed from the log. */
  snapshotAt(live: Live, version: number): Snapshot {
    if (version === live.events.length) return this.snapshot(live);
    return snapshotOf(live.id, version, replay(live.record.setup, live.events.slice(0, version).map((e) => e.step)));
  }

  /**
   * Take a step this instance appended at the next version: `match` and `snapshot` are the state after it.
   * Call inside `serial`, right after the store accepted the append.
   */
  commit(live: Live, event: StoredEvent, match: Match, snapshot: Snapshot): void {
    live.match = match;
    live.events.push(event);
    live.eventIds.set(event.eventId, live.events.length);
    live.snap = snapshot;
  }

  /**
   * Apply the steps other instances appended since this copy's version. Call inside `serial`.
   * @returns true when the match advanced.
   * @throws when a logged step does not replay (a corrupt log) or the store is unavailable.
   */
  async catchUp(live: Live): Promise<boolean> {
    const events = await this.store.eventsSince(live.id, live.events.length);
    if (events.length === 0) return false;
    let match = live.match;
    for (const [i, e] of events.entries()) {
      const r = applyStep(match, e.step);
      if (!r.ok) throw new Error(`match ${live.id}: log step ${live.events.length + i + 1} does not replay: ${r.error.message}`);
      match = r.match;
    }
    for (const e of events) {
      live.events.push(e);
      live.eventIds.set(e.eventId, live.events.length);
    }
    live.match = match;
    return true;
  }

  /** One queued catch-up shared by every caller that asks before it starts. */
  refresh(live: Live): Promise<void> {
    if (live.pendingRefresh) return live.pendingRefresh;
    const p = this.serial(live, async () => {
      live.pendingRefresh = null;
      await this.catchUp(live);
    });
    live.pendingRefresh = p;
    return p;
  }

  /**
   * After the fan-out was interrupted: bring each given match that is loaded here up to the store's
   * latest version and return its push (latest state and the step that made it), for matches past version 0.
   */
  async resync(ids: Iterable<string>): Promise<StatePush[]> {
    const pushes: StatePush[] = [];
    for (const id of ids) {
      const live = await this.cache.peek(id)?.catch(() => null);
      if (!live) continue;
      await this.refresh(live);
      const version = live.events.length;
      if (version > 0) pushes.push({ ...this.snapshot(live), step: this.stepAt(live, version) });
    }
    return pushes;
  }

  /** Forget matches untouched for `idleMs` with nothing queued that `keep` does not claim (e.g. still watched). */
  evictIdle(idleMs: number, keep: (id: string) => boolean): void {
    this.cache.evictIdle(idleMs, keep);
  }

  /** Wait for every queued operation (graceful shutdown). */
  drain(): Promise<void> {
    return this.cache.drain();
  }

  private async load(id: string): Promise<Live | null> {
    const loaded = await this.store.load(id);
    if (!loaded) return null;
    const match = replay(loaded.record.setup, loaded.events.map((e) => e.step));
    const eventIds = new Map(loaded.events.map((e, i) => [e.eventId, i + 1] as const));
    return { id, record: loaded.record, match, events: loaded.events, eventIds, snap: null, pendingRefresh: null };
  }
}
