/**
 * The storage port of the match server: an append-only event log per match with compare-and-append,
 * the set-up and scorer-token hash beside it, eventId dedupe, and a state snapshot (with the listing row).
 * Two adapters implement it: `RedisStore` (Redis Streams, shared by many instances) and `FileStore`
 * (append-only JSONL files, the embedded single-instance mode).
 */
import type { MatchSetup } from '../../shared/protocol/setup';
import type { MatchState } from '../../shared/protocol/state';
import type { Step } from '../../shared/protocol/steps';
import type { MatchSummary } from '../../shared/protocol/wire';

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
export interface StoredEvent {
  /** Client-chosen idempotency key, unique per match. */
  eventId: string;
  step: Step;
  /** Time the server accepted it, ms since the epoch. */
  at: number;
}

/** What is kept beside the log after each append: the listing row and the public state at that version. */
export interface StoredSnapshot {
  summary: MatchSummary;
  state: MatchState;
}

/** A match as read back from the store. `events.length` is its version. */
export interface LoadedLog {
  record: MatchRecord;
  events: StoredEvent[];
}

/**
 * Result of a compare-and-append:
 * - `ok`: the event is now at `version` (= expectedVersion + 1);
 * - `duplicate`: the eventId is already in the log, at `version`; nothing was written;
 * - `stale`: the log is at `version`, not at the expected version; nothing was written.
 */
export type AppendResult =
  | { status: 'ok'; version: number }
  | { status: 'duplicate'; version: number }
  | { status: 'stale'; version: number };

/** Storage port. All methods reject only on I/O failure (never for a business refusal). */
export interface MatchStore {
  readonly kind: 'redis' | 'file';
  /** Store a new match with its snapshot at version 0. Rejects if the id exists. */
  create(record: MatchRecord, snapshot: StoredSnapshot): Promise<void>;
  /** The whole log of a match, or null when unknown. */
  load(id: string): Promise<LoadedLog | null>;
  /** Events after `version` (versions version+1 …), oldest first. */
  eventsSince(id: string, version: number): Promise<StoredEvent[]>;
  /**
   * Append `event` if the log is exactly at `expectedVersion` and its eventId is new; keep `snapshot`
   * (listing row and state after the append) beside it. The event is durable before it resolves `ok`.
   */
  append(id: string, expectedVersion: number, event: StoredEvent, snapshot: StoredSnapshot): Promise<AppendResult>;
  /** Summaries of the most recently updated matches, newest first. */
  list(limit: number): Promise<MatchSummary[]>;
  /** Release connections / file handles. */
  close(): Promise<void>;
}
