/**
 * The storage port of the match server: an append-only log of steps per match with compare-and-append,
 * the set-up and scorer-token hash beside it, stepId dedupe, a state snapshot (with the listing row) and the
 * engine's checkpoint every few hundred steps (written with the step that makes it due).
 * Four adapters implement it and pass the same store-port suite (tests/server/store-port.test.ts): `RedisStore`
 * (Redis Streams, shared by many instances), `SqliteMatchStore` (one SQLite database: the embedded
 * single-instance mode), `FileStore` (append-only JSONL files: the older embedded mode, kept for the one-time
 * import) and `MemoryStore` (this process only: service-level tests, benchmarks).
 */
import type { MatchSetup } from '../../shared/protocol/setup';
import type { MatchState } from '../../shared/protocol/state';
import type { Step } from '../../shared/protocol/steps';
import type { MatchSummary } from '../../shared/protocol/wire';
import type { Core } from '../../shared/rules/core';
import type { StoredStats } from '../../shared/stats';

/** The immutable head of a match: who, what rules, and the hash of its scorer token. */
export interface MatchRecord {
  id: string;
  setup: MatchSetup;
  /** sha256 hex of the scorer token (the token itself is never stored). */
  tokenHash: string;
  /** Creation time, ms since the epoch. */
  createdAt: number;
  /** RULES_VERSION (shared/rules/version.ts) the match was created under; see `storedRulesVersion`. */
  rulesVersion: number;
}

/**
 * The rules version of a record as read back from a store: a stored positive integer (a number, or its
 * decimal text in a Redis hash), else 1 (a record from before versions were kept was recorded under version 1).
 */
export function storedRulesVersion(raw: unknown): number {
  const n = typeof raw === 'string' && raw !== '' ? Number(raw) : raw;
  return typeof n === 'number' && Number.isInteger(n) && n >= 1 ? n : 1;
}

/** One accepted step in the log. Its version is its 1-based position. */
export interface StoredStep {
  /** Client-chosen idempotency key, unique per match. */
  stepId: string;
  step: Step;
  /** Time the server accepted it, ms since the epoch. */
  at: number;
}

/** What is kept beside the log after each append: the listing row and the public state at that version. */
export interface StoredSnapshot {
  summary: MatchSummary;
  state: MatchState;
}

/** A match as read back from the store. `steps.length` is its version. */
export interface LoadedLog {
  record: MatchRecord;
  steps: StoredStep[];
}

/**
 * The engine's state stored beside the log every few hundred steps, so loading a match applies only the
 * steps after it instead of replaying the whole log. A checkpoint of another `format` is ignored (the log is
 * replayed). A load that replays the log past a checkpoint (one of another rules version, an undo reaching
 * past the kept steps) compares the replayed state with `hash`: on a mismatch the checkpoint wins and the
 * disagreement is logged (server/matches/live-cache.ts). Any checkpoint stays valid as the log only grows.
 */
export interface Checkpoint {
  /** CHECKPOINT_FORMAT of the server that wrote it. */
  format: number;
  /** RULES_VERSION of the engine that computed it. */
  rulesVersion: number;
  /** Log version the state is at. */
  version: number;
  /** Effective steps (`Match.depth`). */
  depth: number;
  core: Core;
  stats: StoredStats;
  /**
   * `stateHashOf(depth, core, stats)` (server/matches/state-hash.ts) as the engine that wrote it computed it.
   * Absent in checkpoints written before it was kept: the hash of their content is used instead.
   */
  hash?: string;
}

/** What loading a match reads: its record, the latest checkpoint and the log's newest part. */
export interface OpenedLog {
  record: MatchRecord;
  checkpoint: Checkpoint | null;
  /**
   * Steps at versions `from + 1` … the latest, oldest first: every event after the checkpoint (all of them
   * without one), and before it as many as make the newest `tail` asked for.
   */
  steps: StoredStep[];
  from: number;
}

/**
 * What `MatchStore.open` reads of a log of `length` steps: the checkpoint, unless it is past the log's end
 * (then none), and `from`, the version after which steps are returned (the checkpoint's, and early enough to
 * hold the newest `tail` steps).
 */
export function openedRange(checkpoint: Checkpoint | null, length: number, tail: number): { checkpoint: Checkpoint | null; from: number } {
  const usable = checkpoint && checkpoint.version <= length ? checkpoint : null;
  return { checkpoint: usable, from: Math.max(0, Math.min(usable?.version ?? 0, length - tail)) };
}

/**
 * Result of a compare-and-append:
 * - `ok`: the event is now at `version` (= expectedVersion + 1);
 * - `duplicate`: the stepId is already in the log, at `version`; nothing was written;
 * - `stale`: the log is at `version`, not at the expected version; nothing was written.
 */
export type AppendResult =
  | { status: 'ok'; version: number }
  | { status: 'duplicate'; version: number }
  | { status: 'stale'; version: number };

/**
 * What an append may carry besides its step and snapshot: `checkpoint`, the engine's state at the version the
 * append makes (the one CHECKPOINT_EVERY makes due there), kept as the match's latest checkpoint together with
 * the step (see `MatchStore.append`).
 */
export interface AppendExtras {
  checkpoint?: Checkpoint;
}

/**
 * The checkpoint an append carries, checked against the version the append makes (`expectedVersion + 1`).
 * @returns the checkpoint, or undefined when none is carried.
 * @throws Error naming both versions when it is of another version (a caller's bug: nothing is written).
 */
export function carriedCheckpoint(expectedVersion: number, extras: AppendExtras | undefined): Checkpoint | undefined {
  const ck = extras?.checkpoint;
  if (ck && ck.version !== expectedVersion + 1) {
    throw new Error(`checkpoint: it is at version ${ck.version}, but the append makes version ${expectedVersion + 1}; nothing was written`);
  }
  return ck;
}

/** Answer of `MatchStore.removeIfEmpty`. */
export type RemoveResult = 'removed' | 'has-steps' | 'missing';

/** Storage port. All methods reject only on I/O failure (never for a business refusal). */
export interface MatchStore {
  readonly kind: 'redis' | 'file' | 'sqlite' | 'memory';
  /** Store a new match with its snapshot at version 0. Rejects if the id exists. */
  create(record: MatchRecord, snapshot: StoredSnapshot): Promise<void>;
  /** The whole log of a match, or null when unknown. */
  load(id: string): Promise<LoadedLog | null>;
  /**
   * Record, checkpoint and the log from the checkpoint on (and at least its newest `tail` steps), or null
   * when unknown: what loading a match needs, without the older log.
   */
  open(id: string, tail: number): Promise<OpenedLog | null>;
  /** Events after `version` (versions version+1 … `upTo`, default the latest), oldest first. */
  stepsSince(id: string, version: number, upTo?: number): Promise<StoredStep[]>;
  /** The version `stepId` was recorded at, or undefined (the store's own dedupe index). */
  versionOfStep(id: string, stepId: string): Promise<number | undefined>;
  /**
   * Keep `checkpoint` as the match's latest checkpoint (replacing the one before), on its own: for a checkpoint
   * of a version already in the log (the live cache's after a load that replayed the log). The checkpoint due
   * with a new step travels with its append instead (`extras.checkpoint`).
   */
  saveCheckpoint(id: string, checkpoint: Checkpoint): Promise<void>;
  /**
   * Append `entry` if the log is exactly at `expectedVersion` and its stepId is new; keep `snapshot` (listing row
   * and state after the append) and, when `extras.checkpoint` is given (its version must be `expectedVersion + 1`,
   * else it rejects with nothing written), that checkpoint beside it. All of it is durable before it resolves
   * `ok`, and written together or not at all: the SQLite store in one transaction, the Redis store in its one
   * append script, the memory store in one synchronous turn (a refusal — `stale`, `duplicate`, or a
   * rejection — writes neither the step nor the checkpoint). The older file store (import only) is the
   * exception: it writes the checkpoint after the step, best effort (see server/storage/file-store.ts).
   */
  append(id: string, expectedVersion: number, entry: StoredStep, snapshot: StoredSnapshot, extras?: AppendExtras): Promise<AppendResult>;
  /**
   * Release what the store holds in memory for matches untouched for `idleMs` that `keep` does not claim
   * (the file store: open log files and their stepId index). Optional: the Redis store holds nothing.
   */
  evictIdle?(idleMs: number, keep: (id: string) => boolean): void;
  /**
   * Remove match `id` (record, snapshot, listing row, checkpoint) only if its log holds no step, atomically with
   * that check (a step appended meanwhile, by any instance, keeps it): `removed`, `has-steps` (nothing changed)
   * or `missing`. For the matches an event made and took off its table before they started. Optional: the
   * older file store (kept only for the one-time import) has none.
   */
  removeIfEmpty?(id: string): Promise<RemoveResult>;
  /** Summaries of the most recently updated matches, newest first. */
  list(limit: number): Promise<MatchSummary[]>;
  /** Release connections / file handles. */
  close(): Promise<void>;
}
