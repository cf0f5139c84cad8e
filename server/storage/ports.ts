/**
 * The storage ports: every type the services and the wiring know the stores by, in one place. A backend
 * implements each port once (server/storage/memory-store.ts, sqlite-store.ts, redis-storage.ts) and hands them
 * over together as `StoragePorts`; every adapter imports only shared/, its driver and this module (and the
 * storage helpers beside it), never a layer above (tests/protocol/layers.test.ts). One contract suite runs every
 * port against every backend (tests/server/store-port.test.ts). Adding a port: declare it here, add it to
 * `StoragePorts`, implement it in each backend, and add its cases to the contract suite.
 *
 * The ports:
 * - `MatchStore`: an append-only log of steps per match with compare-and-append, the set-up and scorer-token
 *   hash beside it, stepId dedupe, a state snapshot (with the listing row) and the engine's checkpoint every few
 *   hundred steps (written with the step that makes it due);
 * - `TournamentStore`: one document per tournament (an "event" in the API, `/api/events`; the word never means a
 *   log entry here: those are steps), replaced whole by compare-and-set on its version, and the links of each
 *   match put on one of its tables back to the tournament (so a recorded step finds the tournaments it belongs
 *   to). The document is the truth; a link says where to look and may outlive the listing it was made for (a
 *   reader checks the document's `matches`);
 * - `ShotClockStore`: one small document per match (settings, clock state, revision), compare-and-set on the revision;
 * - `SponsorStore`: the sponsors' logos of an event (type and bytes; the event's document lists them);
 * - `DrawStore` (draw-store.ts): an event's draw; `WebhookStore` (webhook-store.ts): an event's webhooks and their status.
 */
import type { DrawStore } from './draw-store';
import type { WebhookStore } from './webhook-store';
import type { MatchSetup } from '../../shared/protocol/setup';
import type { MatchState } from '../../shared/protocol/state';
import type { Step } from '../../shared/protocol/steps';
import type { MatchSummary } from '../../shared/protocol/wire';
import type { Core } from '../../shared/rules/core';
import type { StoredStats } from '../../shared/stats';
import type { EventInfo, EventListing, SponsorType } from '../../shared/protocol/event';
import type { ShotClock, ShotClockSettings } from '../../shared/shot-clock';

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
   * Steps at versions `from + 1` … the latest, oldest first: every step after the checkpoint (all of them
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
 * - `ok`: the step is now at `version` (= expectedVersion + 1);
 * - `duplicate`: the stepId is already in the log, at `version`; nothing was written;
 * - `stale`: the log is at `version`, not at the expected version; nothing was written.
 */
export type AppendResult = { status: 'ok'; version: number } | { status: 'duplicate'; version: number } | { status: 'stale'; version: number };

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

/** Which backend a store belongs to. */
export type StoreKind = 'redis' | 'sqlite' | 'memory';

/** Storage port of the matches. All methods reject only on I/O failure (never for a business refusal). */
export interface MatchStore {
  readonly kind: StoreKind;
  /** Store a new match with its snapshot at version 0. Rejects if the id exists. */
  create(record: MatchRecord, snapshot: StoredSnapshot): Promise<void>;
  /** The whole log of a match, or null when unknown. */
  load(id: string): Promise<LoadedLog | null>;
  /**
   * Record, checkpoint and the log from the checkpoint on (and at least its newest `tail` steps), or null
   * when unknown: what loading a match needs, without the older log.
   */
  open(id: string, tail: number): Promise<OpenedLog | null>;
  /** Steps after `version` (versions version+1 … `upTo`, default the latest), oldest first. */
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
   * rejection — writes neither the step nor the checkpoint).
   */
  append(id: string, expectedVersion: number, entry: StoredStep, snapshot: StoredSnapshot, extras?: AppendExtras): Promise<AppendResult>;
  /**
   * Remove match `id` (record, snapshot, listing row, checkpoint) only if its log holds no step, atomically with
   * that check (a step appended meanwhile, by any instance, keeps it): `removed`, `has-steps` (nothing changed)
   * or `missing`. For the matches an event made and took off its table before they started.
   */
  removeIfEmpty(id: string): Promise<RemoveResult>;
  /** Summaries of the most recently updated matches, newest first. */
  list(limit: number): Promise<MatchSummary[]>;
  /** Release connections / file handles. */
  close(): Promise<void>;
}

/** A sponsor's logo as stored: its type (decided by its content) and its bytes. */
export interface SponsorImage {
  type: SponsorType;
  bytes: Buffer;
}

/** An event as stored: the public event plus the organiser token's hash and the roster's id counter. */
export interface TournamentDoc extends EventInfo {
  /** sha256 hex of the organiser token (the token itself is never stored). */
  tokenHash: string;
  /** Number for the next roster player's id (`p<n>`). */
  nextPlayer: number;
  /**
   * The tables' scorer tokens (issue 27 §4), table id → sha256 hex of the token and when it was issued (ms since
   * the epoch). Re-issuing replaces a table's token; revoking removes it. Absent: none issued.
   */
  tablets?: Record<string, { hash: string; issuedAt: number }>;
}

/** Result of a compare-and-set: `ok` (now at expectedVersion + 1) or `stale` (the stored version). */
export type SaveResult = { status: 'ok'; version: number } | { status: 'stale'; version: number };

/** Matches a save links to its event (newly listed) and unlinks (no longer listed). */
export interface LinkChange {
  linked: readonly string[];
  unlinked: readonly string[];
}

/** The link change from the event `before` to `after` (match ids in `matches`). */
export function linkChange(before: Pick<EventInfo, 'matches'>, after: Pick<EventInfo, 'matches'>): LinkChange {
  const was = new Set(before.matches.map((m) => m.id));
  const now = new Set(after.matches.map((m) => m.id));
  return { linked: [...now].filter((id) => !was.has(id)), unlinked: [...was].filter((id) => !now.has(id)) };
}

/** Tournament storage. Methods reject only on I/O failure (never for a business refusal). */
export interface TournamentStore {
  readonly kind: StoreKind;
  /** Store a new event (version 0) and link its matches. Rejects if the id exists (a link or listing row may stay). */
  createTournament(doc: TournamentDoc): Promise<void>;
  /** The event, or null when unknown. */
  loadTournament(id: string): Promise<TournamentDoc | null>;
  /**
   * Replace the event with `doc` (whose `version` is expectedVersion + 1) if the stored one is exactly at
   * `expectedVersion`; link the matches it newly lists to the event and unlink those it no longer lists.
   * Durable before it resolves `ok`; the document is unchanged when `stale`. Whatever happens (a crash, a
   * `stale` answer), every match a stored event lists stays linked to it; an extra link may stay.
   */
  saveTournament(doc: TournamentDoc, expectedVersion: number, links: LinkChange): Promise<SaveResult>;
  /** The events match `matchId` may be on: every event that lists it, and perhaps others (check their `matches`). */
  tournamentsOfMatch(matchId: string): Promise<string[]>;
  /** The most recently changed events, newest first. */
  listTournaments(limit: number): Promise<EventListing[]>;
  close(): Promise<void>;
}

/** Listing row of an event. */
export function listingOf(doc: EventInfo): EventListing {
  return { id: doc.id, name: doc.name, date: doc.date, tables: doc.tables.length, updatedAt: doc.updatedAt };
}

/** The sponsors' logos of the events. Methods reject only on I/O failure. */
export interface SponsorStore {
  /**
   * Store the logo `sponsorId` of event `eventId` (replacing one of that id). Durable before it resolves. The
   * event's document lists it (`sponsors`) only after this resolved, so a listed logo is always stored.
   */
  put(eventId: string, sponsorId: string, image: SponsorImage): Promise<void>;
  /** The logo, or null when none is stored at that id. */
  load(eventId: string, sponsorId: string): Promise<SponsorImage | null>;
  /** Remove the logo (nothing when there is none). */
  delete(eventId: string, sponsorId: string): Promise<void>;
}

/**
 * A match's stored shot clock: settings (null: turned off, the state kept so extensions used are remembered if
 * it is turned on again), state, and the revision every write increments (1 for the first). Never part of the
 * step log: clock actions change neither the rules' state nor the score sheet.
 */
export interface ShotClockDoc {
  settings: ShotClockSettings | null;
  clock: ShotClock;
  revision: number;
}

/**
 * Where a match's shot clock is kept, beside the match in the same store, so a restart, a reload or another
 * instance sees the same clock: read a match's clock document, and write one if the stored revision is still
 * `expectedRevision` (0: none stored), so two instances pressing at once cannot lose a press.
 */
export interface ShotClockStore {
  /** The stored document, or null when the match has no clock. */
  read(matchId: string): Promise<ShotClockDoc | null>;
  /**
   * Store `doc` (whose `revision` must be `expectedRevision + 1`) if the stored revision is `expectedRevision`;
   * false when another write came first (read again and decide again). Durable before it resolves true.
   */
  write(matchId: string, doc: ShotClockDoc, expectedRevision: number): Promise<boolean>;
}

/** Every port of one backend, over the same database (or Redis, or memory). */
export interface StoragePorts {
  readonly kind: StoreKind;
  matches: MatchStore;
  tournaments: TournamentStore;
  shotClocks: ShotClockStore;
  sponsors: SponsorStore;
  /** The events' draws (server/storage/draw-store.ts; its adapters are server/storage/*-draw-store.ts). */
  draws: DrawStore;
  /** The events' webhooks and their delivery status (server/storage/webhook-store.ts; adapters *-webhook-store.ts). */
  webhooks: WebhookStore;
  /** Release the backend's connections or file handles (a Redis client passed in stays the caller's). */
  close(): Promise<void>;
}
