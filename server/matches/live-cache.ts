/**
 * The live-match cache: every loaded match in memory, over whichever store the server runs on (Redis or
 * files). Per match it keeps a `Live` (server/matches/live-window.ts): the engine's match with a bounded undo stack,
 * the newest log steps for dedupe, and the latest state, snapshot and pushes. It loads a match from the
 * checkpoint stored beside its log plus the steps after it, runs all work on one match through a serial
 * queue, catches up with steps other instances appended (shared stores), builds the checkpoint due every
 * CHECKPOINT_EVERY versions for the append that makes it due (the store writes both together: no step is ever
 * stored without its due checkpoint, nor a checkpoint without its step), and forgets idle matches. An undo
 * reaching past the kept undo stack, and an stepId or state older than the kept steps, go to the store (rare). It decides nothing: the match
 * service (server/matches/service.ts) judges each step and hands the accepted ones here.
 *
 * Replay checked against checkpoints (issue 16 item 7). Each checkpoint stores a hash of the state
 * (./state-hash.ts). A load that replays the log past a checkpoint — one written under another rules version,
 * an undo reaching past the kept steps, a catch-up that needs the whole log — compares the replayed state at
 * the checkpoint's version with that hash. On a mismatch (or a stored step that no longer replays before it)
 * the checkpoint wins: the match goes on from the checkpoint's state, the steps after it applied by the current
 * rules, and a warning names the match id and the rules versions. Chosen over storing each step's decided
 * outcome (replay would then only evolve) because the log stays the referee's facts and the rules stay the
 * one authority (a fix such as D-31 still reaches old logs where intended), the stores' log format and the
 * three stores' code are unchanged, the check costs one hash per checkpoint (every CHECKPOINT_EVERY steps) and
 * one per replay that crosses a checkpoint, and an acknowledged state is never rewritten by a later rules change.
 *
 * Only this module reads or changes a `Live`, so what a loaded match keeps can change without touching the
 * service.
 */
import type { Logger } from 'pino';
import { newMatch, replay, resumeMatch, RULES_VERSION, undoable, view, type Match, type MatchState, type Snapshot, type Step } from '../../shared/index';
import { statsFromStored, storedStats } from '../../shared/stats';
import type { Clock } from '../clock';
import { KeyedCache } from './keyed-cache';
import { SAFE_ID } from '../../shared/protocol/limits';
import type { ScorebugFigures } from '../../shared/protocol/wire';
import {
  advance,
  applyLogged,
  blankLive,
  figuresOf,
  NeedsWholeLog,
  pushesOf,
  recentAt,
  snapshotOf,
  stateAtOf,
  stateOf,
  trimWindow,
  WINDOW,
  type Live,
  type Pushes,
} from './live-window';
import { matchHash, stateHashOf } from './state-hash';
import { projectState } from '../../shared/view';
import type { Checkpoint, MatchRecord, MatchStore, StoredStep } from '../storage/ports';

export type { Live, Pushes } from './live-window';
export { WINDOW, WINDOW_MAX } from './live-window';

/** A checkpoint is stored every CHECKPOINT_EVERY versions. */
export const CHECKPOINT_EVERY = 200;
/**
 * Format of the checkpoints this server writes; others are ignored (the log is replayed instead). Format 1 was
 * a pre-release layout (recent steps kept with their step and worded outcome).
 */
export const CHECKPOINT_FORMAT = 2;

export interface LiveCacheOptions {
  store: MatchStore;
  /** True when other instances may write the same store (Redis): reads catch up with the log first. */
  shared: boolean;
  /**
   * Hears checkpoints saved after a load that could not be stored (they go with the next append instead) and
   * replays that disagree with a stored checkpoint (`replay disagrees with the checkpoint`, with matchId and rulesVersion).
   */
  log?: Logger;
  /** What idle eviction measures idleness with (default the wall clock). */
  clock?: Clock;
}

/** Loaded matches by id over `store`. */
export class LiveCache {
  private readonly cache: KeyedCache<Live>;
  private readonly store: MatchStore;
  private readonly logger: Logger | undefined;
  readonly shared: boolean;

  constructor(opts: LiveCacheOptions) {
    this.store = opts.store;
    this.shared = opts.shared;
    this.logger = opts.log;
    this.cache = new KeyedCache((id) => this.load(id), opts.clock);
  }

  /** The loaded match `id` (loading it from the store on first use), or null when unknown (an id outside SAFE_ID without asking the store). */
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
  add(record: MatchRecord, match: Match, state: MatchState): Live {
    const live = blankLive(record.id, record, match, 0);
    live.state = state;
    this.cache.set(record.id, live);
    return live;
  }

  /** Forget match `id` (removed from the store); the next `get` asks the store again. */
  forget(id: string): void {
    this.cache.delete(id);
  }

  /** Run `task` after every earlier task on the same match; a failed task does not block the next. */
  serial<R>(live: Live, task: () => Promise<R>): Promise<R> {
    return this.cache.serial(live.id, task);
  }

  /** Latest version of a loaded match. */
  version(live: Live): number {
    return live.version;
  }

  /** Version at which `stepId` was recorded if it is one of the kept steps, else undefined (ask `storedVersionOf`). */
  versionOf(live: Live, stepId: string): number | undefined {
    return live.stepIds.get(stepId);
  }

  /** Version at which `stepId` was recorded, from the store's own index (any age), or undefined. */
  storedVersionOf(live: Live, stepId: string): Promise<number | undefined> {
    return this.store.versionOfStep(live.id, stepId);
  }

  /** The step recorded at `version` (1…version(live)): kept, or read from the store. */
  async stepAt(live: Live, version: number): Promise<Step> {
    const kept = recentAt(live, version);
    if (kept) return kept.step;
    const [entry] = await this.store.stepsSince(live.id, version - 1, version);
    if (!entry) throw new Error(`match ${live.id}: no step at version ${version} in the store`);
    return entry.step;
  }

  /** Public state at `version` (1…version(live)): kept, or the log replayed up to it (rare: an old retried stepId). */
  async stateAt(live: Live, version: number): Promise<MatchState> {
    if (version === live.version) return stateOf(live);
    const kept = recentAt(live, version)?.at;
    if (kept) return projectState(live.record.setup, kept.core, kept.depth, kept.last);
    const steps = await this.store.stepsSince(live.id, 0, version);
    return view(
      replay(
        live.record.setup,
        steps.map((e) => e.step),
        live.record.rulesVersion,
      ),
    );
  }

  /** The log, versions 1…version(live), read from the store. */
  log(live: Live): Promise<StoredStep[]> {
    return this.store.stepsSince(live.id, 0, live.version);
  }

  /** Public state at the latest version. */
  state(live: Live): MatchState {
    return stateOf(live);
  }

  /** The figures a scorebug shows beside the latest state (average, racks won). */
  figures(live: Live): ScorebugFigures {
    return figuresOf(live);
  }

  /** Snapshot at the latest version with the whole statistics (built once per version, O(sheet rows)). */
  snapshot(live: Live): Snapshot {
    return snapshotOf(live);
  }

  /**
   * Before deciding an undo: when the kept undo stack is empty but the match has effective steps (they were
   * trimmed, or the match was loaded from a checkpoint), rebuild it from the whole log. Call inside `serial`.
   */
  async prepareUndo(live: Live): Promise<void> {
    if (live.undoable === 0 && live.match.depth > 0) await this.rebuild(live);
  }

  /**
   * The checkpoint due with the next append: `match` (the match after the step being appended) at version
   * `version(live) + 1` when the newest checkpoint is then CHECKPOINT_EVERY versions old, else undefined. The
   * caller hands it to the store's append (`extras.checkpoint`), which writes it with the step or not at all,
   * then to `commit`. Changes nothing here (a refused append leaves it due). O(sheet rows) when due.
   */
  dueCheckpoint(live: Live, match: Match): Checkpoint | undefined {
    const version = live.version + 1;
    return version - live.checkpointed >= CHECKPOINT_EVERY ? checkpointOf(version, match) : undefined;
  }

  /**
   * Take a step this instance appended at the next version: `match` and `state` are the match and public
   * state after it, `checkpoint` the one the append carried (from `dueCheckpoint`), now stored with it. Call
   * inside `serial`, right after the store accepted the append.
   * @returns the pushes of the new version (O(rows changed)).
   */
  commit(live: Live, entry: StoredStep, match: Match, state: MatchState, checkpoint?: Checkpoint): Pushes {
    advance(live, entry, match);
    live.state = state;
    if (checkpoint) this.stored(live, checkpoint);
    return pushesOf(live);
  }

  /**
   * Apply the steps other instances appended since this copy's version. Call inside `serial`.
   * @returns true when the match advanced.
   * @throws when a logged step does not replay (a corrupt log) or the store is unavailable.
   */
  async catchUp(live: Live): Promise<boolean> {
    const steps = await this.store.stepsSince(live.id, live.version);
    if (steps.length === 0) return false;
    try {
      for (const e of steps) applyLogged(live, e);
    } catch (err) {
      if (!(err instanceof NeedsWholeLog)) throw err;
      await this.rebuild(live);
    }
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
   * After the fan-out was interrupted: bring every given match that is loaded here up to the store's latest
   * version — all reads sent at once (node-redis pipelines them) — and return the pushes of each match past
   * version 0 (one per room).
   */
  async resync(ids: Iterable<string>): Promise<Pushes[]> {
    const loaded = await Promise.all([...ids].map((id) => this.cache.peek(id)?.catch(() => null) ?? null));
    const lives = loaded.filter((l): l is Live => l !== null);
    await Promise.all(lives.map((l) => this.refresh(l)));
    return lives.filter((l) => l.version > 0).map(pushesOf);
  }

  /**
   * Forget matches untouched for `idleMs` with nothing queued that `keep` does not claim (e.g. still watched).
   */
  evictIdle(idleMs: number, keep: (id: string) => boolean): void {
    this.cache.evictIdle(idleMs, keep);
  }

  /** Whether match `id` is loaded (or loading) here. */
  isLoaded(id: string): boolean {
    return this.cache.peek(id) !== undefined;
  }

  /**
   * What a loaded match keeps, for diagnostics and tests: its version, the effective steps of the match, how
   * many of them the undo stack holds, and how many log steps are kept (with their stepIds); null when not loaded.
   */
  async inspect(id: string): Promise<{ version: number; depth: number; undoable: number; keptSteps: number; keptStepIds: number } | null> {
    const live = await this.cache.peek(id)?.catch(() => null);
    if (!live) return null;
    return { version: live.version, depth: live.match.depth, undoable: undoable(live.match), keptSteps: live.recent.length, keptStepIds: live.stepIds.size };
  }

  /** Wait for every queued operation (graceful shutdown). */
  drain(): Promise<void> {
    return this.cache.drain();
  }

  /** Load a match: its checkpoint and the steps after it, or (no usable checkpoint) its whole log. */
  private async load(id: string): Promise<Live | null> {
    const opened = await this.store.open(id, WINDOW);
    if (!opened) return null;
    const { record, steps, from } = opened;
    const ck = opened.checkpoint;
    let live: Live;
    if (ck && ck.format === CHECKPOINT_FORMAT && ck.rulesVersion === RULES_VERSION) {
      const base = resumeMatch(record.setup, ck.core, statsFromStored(ck.stats), ck.depth);
      live = blankLive(id, record, base, from);
      live.checkpointed = ck.version;
      live.verified = { version: ck.version, hash: ck.hash ?? stateHashOf(ck.depth, ck.core, ck.stats) };
      const before = ck.version - from;
      // Steps up to the checkpoint: kept for dedupe only (their states are not known here).
      for (const e of steps.slice(0, before)) advance(live, e, null);
      if (before > 0) live.recent[live.recent.length - 1] = { ...live.recent[live.recent.length - 1]!, at: stateAtOf(base) };
      try {
        for (const e of steps.slice(before)) applyLogged(live, e);
      } catch (err) {
        if (!(err instanceof NeedsWholeLog)) throw err;
        await this.rebuild(live);
      }
    } else {
      // No checkpoint, or one of another rules version: the whole log is replayed, and checked against that
      // checkpoint when it has this server's format.
      live = blankLive(id, record, newMatch(record.setup), 0);
      await this.rebuild(live, from === 0 ? steps : undefined, ck && ck.format === CHECKPOINT_FORMAT ? ck : null);
    }
    this.checkpointLoadedIfDue(live);
    return live;
  }

  /**
   * Rebuild `live` from the whole log (read from the store unless given): every step replayed with the
   * undo stack untrimmed, then cut back to the window. For an undo past the kept steps, and a load without
   * a usable checkpoint. O(log).
   */
  private async rebuild(live: Live, steps?: StoredStep[], checkpoint?: Checkpoint | null): Promise<void> {
    const log = steps ?? (await this.store.load(live.id))?.steps;
    if (!log) throw new Error(`match ${live.id} is not in the store`);
    // The checkpoint the replay is checked against: the one given (a load), else the newest this copy knows.
    const check = checkpoint
      ? { version: checkpoint.version, hash: checkpoint.hash ?? stateHashOf(checkpoint.depth, checkpoint.core, checkpoint.stats) }
      : live.verified;
    let fresh = blankLive(live.id, live.record, newMatch(live.record.setup), 0);
    let i = 0;
    if (check && check.version > 0 && check.version <= log.length) {
      let why: string | null = null;
      try {
        for (; i < check.version; i++) applyLogged(fresh, log[i]!, false);
        if (matchHash(fresh.match) !== check.hash) why = 'the replayed state differs from the checkpoint';
      } catch (err) {
        why = `a stored step does not replay: ${(err as Error).message}`;
      }
      if (why !== null) {
        const winner = checkpoint ?? (await this.store.open(live.id, 0))?.checkpoint ?? null;
        if (!winner || winner.version !== check.version) throw new Error(`match ${live.id}: ${why}, and checkpoint ${check.version} is no longer stored`);
        this.logger?.warn(
          {
            matchId: live.id,
            rulesVersion: RULES_VERSION,
            checkpointRulesVersion: winner.rulesVersion,
            matchRulesVersion: live.record.rulesVersion,
            version: winner.version,
            why,
          },
          'replay disagrees with the checkpoint; the checkpoint wins',
        );
        // The match goes on from the checkpoint's state; its undo stack starts there (the steps before it are disputed).
        fresh = blankLive(live.id, live.record, resumeMatch(live.record.setup, winner.core, statsFromStored(winner.stats), winner.depth), winner.version);
        i = winner.version;
      }
    }
    try {
      for (; i < log.length; i++) applyLogged(fresh, log[i]!, false);
    } catch (err) {
      if (err instanceof NeedsWholeLog)
        throw new Error(`match ${live.id}: log step ${i + 1} undoes a step before the checkpoint that won over the replay`, { cause: err });
      throw err;
    }
    trimWindow(fresh, WINDOW);
    Object.assign(live, { ...fresh, checkpointed: live.checkpointed, verified: check, pendingRefresh: live.pendingRefresh });
  }

  /** Note `checkpoint` as stored: the newest checkpoint of `live`, and the one a later replay is checked against. */
  private stored(live: Live, checkpoint: Checkpoint): void {
    live.checkpointed = Math.max(live.checkpointed, checkpoint.version);
    if (!live.verified || live.verified.version < checkpoint.version) {
      live.verified = { version: checkpoint.version, hash: checkpoint.hash ?? stateHashOf(checkpoint.depth, checkpoint.core, checkpoint.stats) };
    }
  }

  /**
   * After a load: store a checkpoint of the loaded version when the newest one is CHECKPOINT_EVERY versions old
   * (a log replayed without a usable checkpoint, or one whose checkpoint lost to the replay check). The version is
   * in the log already, so this one is saved on its own (`saveCheckpoint`), built (O(sheet rows)) in the loop turn
   * after this one so the load's answer goes first; if it fails, it is due again with the next append. The
   * checkpoints due with new steps travel with their append (`dueCheckpoint`).
   */
  private checkpointLoadedIfDue(live: Live): void {
    if (live.version - live.checkpointed < CHECKPOINT_EVERY) return;
    const { version, match } = live;
    live.checkpointed = version;
    setImmediate(() =>
      setImmediate(() => {
        const checkpoint = checkpointOf(version, match);
        this.store.saveCheckpoint(live.id, checkpoint).then(
          () => this.stored(live, checkpoint),
          (err: Error) => {
            if (live.checkpointed === version) live.checkpointed = version - CHECKPOINT_EVERY;
            this.logger?.warn({ matchId: live.id, version, err: err.message }, 'checkpoint not stored');
          },
        );
      }),
    );
  }
}

/** The checkpoint of `match` at log version `version`, in this server's format and rules version, with its state hash. O(sheet rows). */
function checkpointOf(version: number, match: Match): Checkpoint {
  const stats = storedStats(match.stats);
  const hash = stateHashOf(match.depth, match.core, stats);
  return { format: CHECKPOINT_FORMAT, rulesVersion: RULES_VERSION, version, depth: match.depth, core: match.core, stats, hash };
}
