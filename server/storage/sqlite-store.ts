/**
 * The SQLite backend: the embedded (single-instance) store on SQLite (better-sqlite3), every storage port
 * (server/storage/ports.ts) in one database file `cuecast.db` in DATA_DIR — nothing else is written there —, in
 * WAL mode with `synchronous=FULL`, so a transaction is on disk before it is acknowledged.
 *
 * Tables: `matches` (record, version, listing row, checkpoint), `steps` (one row per accepted step: match,
 * version, stepId, step JSON, time; the stepId is unique per match), `events` (one document per event, its
 * version and listing row), `event_links` (match → events listing it), `sponsor_images` (an event's
 * sponsor logos: type and bytes), `clocks` (a match's shot clock document and its revision) and `damaged_matches`
 * (matches a salvage found short of rows: server/storage/sqlite-salvage.ts). A step, the match's new version and
 * its listing row — and, every CHECKPOINT_EVERY versions, the checkpoint due at that version (server/matches/live-cache.ts) —
 * are written in one transaction; an event document and its link changes in another. A write
 * the database refuses (disk full, I/O error) rolls back whole and is reported as a `StoreRefusal`: nothing is
 * acknowledged, and the next write goes through once the cause is gone.
 *
 * Damage stays local: a step row that does not parse ends its match's readable log (the match is served up
 * to the step before it, accepts no more steps, and is reported in the log and `/healthz`); a listing row or an
 * event document that does not parse is left out of the lists and reported. Nothing else is affected.
 *
 * better-sqlite3 is synchronous: each call runs to its end (fsync included) on the event loop, so calls never
 * interleave and compare-and-append needs no lock of its own.
 */
import { SqliteDrawStore } from './sqlite-draw-store';
import { DAMAGED_MATCHES_SQL } from './sqlite-salvage';
import { SqliteWebhookStore } from './sqlite-webhook-store';
import { mkdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import type { EventListing } from '../../shared/protocol/event';
import { SAFE_ID } from '../../shared/protocol/limits';
import type { MatchSummary } from '../../shared/protocol/wire';
import {
  carriedCheckpoint,
  listingOf,
  openedRange,
  storedRulesVersion,
  type AppendExtras,
  type AppendResult,
  type Checkpoint,
  type TournamentDoc,
  type TournamentStore,
  type LinkChange,
  type LoadedLog,
  type MatchRecord,
  type MatchStore,
  type OpenedLog,
  type RemoveResult,
  type SaveResult,
  type ShotClockDoc,
  type ShotClockStore,
  type SponsorImage,
  type SponsorStore,
  type StoragePorts,
  type StoredStep,
  type StoredSnapshot,
} from './ports';
import { sqliteCause, StoreHealth, StoreRefusal } from './store-errors';

/** File name of the database inside DATA_DIR. */
export const DB_FILE = 'cuecast.db';

const SCHEMA = `
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS matches (
  id TEXT PRIMARY KEY,
  record TEXT NOT NULL,
  version INTEGER NOT NULL,
  summary TEXT NOT NULL,
  updated_at INTEGER NOT NULL,
  checkpoint TEXT
);
CREATE INDEX IF NOT EXISTS matches_updated ON matches (updated_at);
CREATE TABLE IF NOT EXISTS steps (
  match_id TEXT NOT NULL,
  version INTEGER NOT NULL,
  step_id TEXT NOT NULL,
  step TEXT NOT NULL,
  at INTEGER NOT NULL,
  PRIMARY KEY (match_id, version),
  UNIQUE (match_id, step_id)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS events (
  id TEXT PRIMARY KEY,
  doc TEXT NOT NULL,
  version INTEGER NOT NULL,
  listing TEXT NOT NULL,
  updated_at INTEGER NOT NULL
);
CREATE INDEX IF NOT EXISTS events_updated ON events (updated_at);
CREATE TABLE IF NOT EXISTS sponsor_images (
  event_id TEXT NOT NULL,
  sponsor_id TEXT NOT NULL,
  type TEXT NOT NULL,
  bytes BLOB NOT NULL,
  PRIMARY KEY (event_id, sponsor_id)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS clocks (
  match_id TEXT PRIMARY KEY,
  doc TEXT NOT NULL,
  revision INTEGER NOT NULL
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS event_links (
  match_id TEXT NOT NULL,
  event_id TEXT NOT NULL,
  PRIMARY KEY (match_id, event_id)
) WITHOUT ROWID;
`;

interface StepRow {
  version: number;
  step_id: string;
  step: string;
  at: number;
}

/** True when `err` is SQLite saying a page of the file cannot be read as what it should be (`SQLITE_CORRUPT*`, `SQLITE_NOTADB`). */
export function isCorrupt(err: unknown): boolean {
  const code = (err as { code?: unknown } | null)?.code;
  return typeof code === 'string' && (code.startsWith('SQLITE_CORRUPT') || code === 'SQLITE_NOTADB');
}

/** Files above this size skip the start-up `quick_check` (it reads every page: ~1 s per few hundred MB); damage is then found on read. */
export const QUICK_CHECK_MAX_BYTES = 512 * 1024 * 1024;
/** Time budget of the start-up scan that names the matches a damaged page touches (ms). */
export const DAMAGE_SCAN_BUDGET_MS = 5000;

/** What the start-up check found (`SqliteDb.check`). */
export interface StartCheck {
  /** `ok`, `damaged` (quick_check found problems), or `skipped` (file too big; damage is found on read). */
  result: 'ok' | 'damaged' | 'skipped';
  /** quick_check's first messages (at most 20). */
  problems: string[];
  /** Matches found damaged by the scan. */
  damagedMatches: string[];
  /** True when the scan ran out of its time budget (the rest is found on read). */
  scanIncomplete: boolean;
  ms: number;
}

/** Run `f`, turning a SQLite error into a `StoreRefusal` (the transaction was rolled back: nothing written). */
function refusing<T>(health: StoreHealth, f: () => T): T {
  try {
    const out = f();
    health.wrote();
    return out;
  } catch (err) {
    if (err instanceof StoreRefusal) throw err;
    const e = err as { code?: string; message?: string };
    const refusal = new StoreRefusal(sqliteCause(e.code), `${e.code ?? 'error'}: ${e.message ?? String(err)}`);
    // Damage is reported by what it touches (`health.damaged`), not as a refusal streak of the whole store.
    if (refusal.reason !== 'damaged') health.refused(refusal.reason, refusal.message, Date.now());
    throw refusal;
  }
}

/**
 * The database file of an embedded server, opened (created with its tables when new) in WAL mode with
 * `synchronous=FULL`. `matches`, `tournaments`, `shotClocks` and `sponsors` are the store ports over it (`ports` all
 * of them together); `health` hears damage and refusals.
 * @throws when the directory cannot be created or the file is not a database.
 */
export class SqliteDb {
  readonly db: Database.Database;
  readonly matches: SqliteMatchStore;
  readonly tournaments: SqliteTournamentStore;
  readonly shotClocks: SqliteShotClockStore;
  readonly sponsors: SqliteSponsorStore;
  /** The draws (server/storage/sqlite-draw-store.ts: its own tables, this connection). */
  readonly draws: SqliteDrawStore;
  /** The webhooks (server/storage/sqlite-webhook-store.ts: its own table, this connection). */
  readonly webhooks: SqliteWebhookStore;
  private closed = false;

  constructor(
    readonly dir: string,
    readonly health: StoreHealth = new StoreHealth(),
  ) {
    mkdirSync(dir, { recursive: true });
    this.db = new Database(join(dir, DB_FILE));
    this.db.pragma('journal_mode = WAL');
    this.db.pragma('synchronous = FULL');
    this.db.pragma('busy_timeout = 5000');
    // After a checkpoint the WAL file shrinks back to at most this size (it would otherwise keep its largest size).
    this.db.pragma('journal_size_limit = 4194304');
    this.db.exec(SCHEMA);
    this.db.exec(DAMAGED_MATCHES_SQL);
    this.matches = new SqliteMatchStore(this);
    this.tournaments = new SqliteTournamentStore(this);
    this.shotClocks = new SqliteShotClockStore(this);
    this.sponsors = new SqliteSponsorStore(this);
    this.draws = new SqliteDrawStore(this.db);
    this.webhooks = new SqliteWebhookStore(this.db);
  }

  /** Every port over this database; closing it closes the database. */
  get ports(): StoragePorts {
    return {
      kind: 'sqlite',
      matches: this.matches,
      tournaments: this.tournaments,
      shotClocks: this.shotClocks,
      sponsors: this.sponsors,
      draws: this.draws,
      webhooks: this.webhooks,
      close: async () => this.close(),
    };
  }

  /**
   * Start-up check for damaged pages, bounded in time: `PRAGMA quick_check(20)` (every page's b-tree structure;
   * skipped for a file over `maxBytes`), and when it finds problems, a scan of every match's rows (its step
   * rows by version and by stepId, and its record) that stops at `budgetMs`: each match a damaged page touches is
   * reported to `health` (the log and `/healthz`) and answers `store-damaged`; the others keep recording.
   * Damage the check skips or misses is found on read the same way.
   */
  check(maxBytes = QUICK_CHECK_MAX_BYTES, budgetMs = DAMAGE_SCAN_BUDGET_MS): StartCheck {
    const t0 = Date.now();
    const done = (c: Omit<StartCheck, 'ms'>): StartCheck => ({ ...c, ms: Date.now() - t0 });
    let size: number;
    try {
      size = statSync(join(this.dir, DB_FILE)).size;
    } catch {
      size = 0;
    }
    if (size > maxBytes) return done({ result: 'skipped', problems: [], damagedMatches: [], scanIncomplete: false });
    let problems: string[];
    try {
      problems = (this.db.pragma('quick_check(20)') as { quick_check: string }[]).map((r) => r.quick_check);
    } catch (err) {
      problems = [(err as Error).message];
    }
    if (problems.length === 1 && problems[0] === 'ok') return done({ result: 'ok', problems: [], damagedMatches: [], scanIncomplete: false });
    const { damaged, complete } = this.matches.scan(t0 + budgetMs);
    return done({ result: 'damaged', problems, damagedMatches: damaged, scanIncomplete: !complete });
  }

  /** A value of the `meta` table (e.g. the file-import marker), or undefined. */
  meta(key: string): string | undefined {
    return (this.db.prepare('SELECT value FROM meta WHERE key = ?').get(key) as { value: string } | undefined)?.value;
  }

  /** Set a value of the `meta` table. */
  setMeta(key: string, value: string): void {
    this.db.prepare('INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value').run(key, value);
  }

  /**
   * Write under `refusing`: a SQLite error becomes a StoreRefusal with its cause, reported to `health`. On a
   * full disk the WAL is checkpointed and truncated (best effort), so the space it holds is free for the retry.
   */
  write<T>(f: () => T): T {
    if (this.closed) throw new Error('store closed');
    try {
      return refusing(this.health, f);
    } catch (err) {
      if (err instanceof StoreRefusal && err.reason === 'disk-full') {
        try {
          this.db.pragma('wal_checkpoint(TRUNCATE)');
        } catch {
          // Still no room: the next write tries again.
        }
      }
      throw err;
    }
  }

  /** Called first when the database closes (e.g. the scheduled backups stop: server/storage/sqlite-backup.ts). */
  readonly onClose: (() => void)[] = [];

  /** Close the database (every port). Idempotent. */
  close(): void {
    if (this.closed) return;
    this.closed = true;
    for (const f of this.onClose) f();
    this.db.close();
  }

  get isOpen(): boolean {
    return !this.closed;
  }
}

/** Match store over the `matches` and `steps` tables of a `SqliteDb`. */
export class SqliteMatchStore implements MatchStore {
  readonly kind = 'sqlite' as const;
  private readonly db: Database.Database;
  /** Matches with a damaged step row: id → first unreadable version. */
  private readonly damagedAt = new Map<string, number>();
  private readonly q;

  constructor(private readonly owner: SqliteDb) {
    this.db = owner.db;
    const db = this.db;
    this.q = {
      insertMatch: db.prepare('INSERT INTO matches (id, record, version, summary, updated_at) VALUES (?, ?, 0, ?, ?)'),
      match: db.prepare('SELECT record, version, checkpoint FROM matches WHERE id = ?'),
      version: db.prepare('SELECT version FROM matches WHERE id = ?'),
      steps: db.prepare('SELECT version, step_id, step, at FROM steps WHERE match_id = ? AND version > ? AND version <= ? ORDER BY version'),
      stepVersion: db.prepare('SELECT version FROM steps WHERE match_id = ? AND step_id = ?'),
      insertStep: db.prepare('INSERT INTO steps (match_id, version, step_id, step, at) VALUES (?, ?, ?, ?, ?)'),
      bump: db.prepare('UPDATE matches SET version = ?, summary = ?, updated_at = ? WHERE id = ? AND version = ?'),
      checkpoint: db.prepare('UPDATE matches SET checkpoint = ? WHERE id = ?'),
      list: db.prepare('SELECT id, summary FROM matches ORDER BY updated_at DESC LIMIT ?'),
      anyStep: db.prepare('SELECT 1 FROM steps WHERE match_id = ? LIMIT 1'),
      remove: db.prepare('DELETE FROM matches WHERE id = ? AND version = 0'),
      ids: db.prepare('SELECT id FROM matches'),
      stepIds: db.prepare('SELECT step_id FROM steps WHERE match_id = ? ORDER BY match_id, step_id'),
    };
    // Matches a salvage (server/storage/sqlite-salvage.ts) found short of rows: read-only from then on.
    for (const r of db.prepare('SELECT match_id, from_version, reason FROM damaged_matches').all() as {
      match_id: string;
      from_version: number;
      reason: string;
    }[])
      this.markDamaged(r.match_id, r.from_version, r.reason);
  }

  /**
   * Read every match's rows until `deadline` (epoch ms): its record, its step rows by version (the table) and
   * by stepId (the unique index, which every append consults). A match whose rows cannot all be read is marked
   * damaged. Returns the damaged ids and whether every match was read; when the list of matches itself cannot be
   * read, the damage is reported and the rest is found on read.
   */
  scan(deadline: number): { damaged: string[]; complete: boolean } {
    let ids: string[];
    try {
      ids = (this.q.ids.all() as { id: string }[]).map((r) => r.id);
    } catch (err) {
      this.health.damaged({ kind: 'match', id: '*', reason: `the list of matches: ${(err as Error).message}` });
      return { damaged: [], complete: false };
    }
    const damaged: string[] = [];
    for (const id of ids) {
      if (Date.now() > deadline) return { damaged, complete: false };
      try {
        const head = this.head(id);
        if (head) this.readSteps(id, 0, head.version);
        if (!this.damagedAt.has(id)) this.q.stepIds.all(id);
      } catch (err) {
        if (!this.damagedAt.has(id)) this.markDamaged(id, 1, `rows unreadable: ${(err as Error).message}`);
      }
      if (this.damagedAt.has(id)) damaged.push(id);
    }
    return { damaged, complete: true };
  }

  /**
   * Run a read of match `id`; SQLite corruption on it (a damaged page) marks the match damaged from
   * `version` (reported) and becomes a `StoreRefusal('damaged')`: permanent, the answer is `store-damaged`.
   */
  private reading<T>(id: string, version: number, f: () => T): T {
    try {
      return f();
    } catch (err) {
      if (!isCorrupt(err)) throw err;
      this.markDamaged(id, version, `page unreadable: ${(err as Error).message}`);
      throw new StoreRefusal('damaged', `match ${id}: a page of its stored data cannot be read (${(err as { code?: string }).code})`);
    }
  }

  private get health(): StoreHealth {
    return this.owner.health;
  }

  async create(record: MatchRecord, snapshot: StoredSnapshot): Promise<void> {
    if (!SAFE_ID.test(record.id)) throw new Error(`bad match id ${record.id}`);
    this.owner.write(() => this.q.insertMatch.run(record.id, JSON.stringify(record), JSON.stringify(snapshot.summary), snapshot.summary.updatedAt));
  }

  async load(id: string): Promise<LoadedLog | null> {
    const head = this.head(id);
    if (!head) return null;
    return { record: head.record, steps: this.readSteps(id, 0, head.version) };
  }

  async open(id: string, tail: number): Promise<OpenedLog | null> {
    const head = this.head(id);
    if (!head) return null;
    const length = this.readableLength(id, head.version);
    const { checkpoint, from } = openedRange(head.checkpoint, length, tail);
    const steps = this.readSteps(id, from, length);
    // A damaged row inside the range shortens the readable log: a checkpoint past it is not used.
    const end = from + steps.length;
    if (end < length) {
      const again = openedRange(head.checkpoint, end, tail);
      return { record: head.record, checkpoint: again.checkpoint, steps: this.readSteps(id, again.from, end), from: again.from };
    }
    return { record: head.record, checkpoint, steps, from };
  }

  async stepsSince(id: string, version: number, upTo?: number): Promise<StoredStep[]> {
    const head = this.reading(id, 1, () => this.q.version.get(id) as { version: number } | undefined);
    if (!head) return [];
    return this.readSteps(id, version, Math.min(upTo ?? head.version, this.readableLength(id, head.version)));
  }

  async versionOfStep(id: string, stepId: string): Promise<number | undefined> {
    const damaged = this.damagedAt.get(id);
    let row: { version: number } | undefined;
    try {
      row = this.reading(id, 1, () => this.q.stepVersion.get(id, stepId) as { version: number } | undefined);
    } catch (err) {
      if (damaged !== undefined && err instanceof StoreRefusal) return undefined; // Known damaged: not found among the readable steps.
      throw err;
    }
    return row && (damaged === undefined || row.version < damaged) ? row.version : undefined;
  }

  async saveCheckpoint(id: string, checkpoint: Checkpoint): Promise<void> {
    this.owner.write(() => this.q.checkpoint.run(JSON.stringify(checkpoint), id));
  }

  /**
   * Compare-and-append (see `MatchStore.append`): the step row, the match's new version and listing row and, when
   * carried, the checkpoint at that version are one IMMEDIATE transaction. Any statement failing rolls all of
   * them back and rejects with a `StoreRefusal` (its cause from the SQLite code): neither the step nor the
   * checkpoint is written, and the same append goes through once the cause is gone.
   */
  async append(id: string, expectedVersion: number, entry: StoredStep, snapshot: StoredSnapshot, extras?: AppendExtras): Promise<AppendResult> {
    const damaged = this.damagedAt.get(id);
    if (damaged !== undefined) {
      throw new StoreRefusal('damaged', `match ${id}: the stored step at version ${damaged} is damaged; the match is read-only up to version ${damaged - 1}`);
    }
    const checkpoint = carriedCheckpoint(expectedVersion, extras);
    // Serialised before the transaction, so the write lock is held for the writes alone.
    const step = JSON.stringify(entry.step);
    const summary = JSON.stringify(snapshot.summary);
    const ckpt = checkpoint ? JSON.stringify(checkpoint) : null;
    return this.appending(id, expectedVersion + 1, () =>
      this.db
        .transaction((): AppendResult => {
          const dup = this.q.stepVersion.get(id, entry.stepId) as { version: number } | undefined;
          if (dup) return { status: 'duplicate', version: dup.version };
          const head = this.q.version.get(id) as { version: number } | undefined;
          if (!head) throw new Error(`match ${id} is not in the store`);
          if (head.version !== expectedVersion) return { status: 'stale', version: head.version };
          const version = expectedVersion + 1;
          this.q.insertStep.run(id, version, entry.stepId, step, entry.at);
          this.q.bump.run(version, summary, snapshot.summary.updatedAt, id, expectedVersion);
          if (ckpt !== null) this.q.checkpoint.run(ckpt, id);
          return { status: 'ok', version };
        })
        .immediate(),
    );
  }

  /** `owner.write(f)` for an append of `version` to match `id`: a damaged page on the way marks the match read-only from `version` (reported). */
  private appending<T>(id: string, version: number, f: () => T): T {
    try {
      return this.owner.write(f);
    } catch (err) {
      if (err instanceof StoreRefusal && err.reason === 'damaged') this.markDamaged(id, version, `append: ${err.message}`);
      throw err;
    }
  }

  async removeIfEmpty(id: string): Promise<RemoveResult> {
    if (!SAFE_ID.test(id)) return 'missing';
    return this.owner.write(() =>
      this.db
        .transaction((): RemoveResult => {
          const head = this.q.version.get(id) as { version: number } | undefined;
          if (!head) return 'missing';
          if (head.version !== 0 || this.q.anyStep.get(id)) return 'has-steps';
          this.q.remove.run(id);
          return 'removed';
        })
        .immediate(),
    );
  }

  async list(limit: number): Promise<MatchSummary[]> {
    const out: MatchSummary[] = [];
    for (const row of this.q.list.iterate(limit) as Iterable<{ id: string; summary: string }>) {
      try {
        out.push(JSON.parse(row.summary) as MatchSummary);
      } catch (err) {
        this.health.damaged({ kind: 'match', id: row.id, reason: `listing row: ${(err as Error).message}` });
      }
    }
    return out;
  }

  async close(): Promise<void> {
    this.owner.close();
  }

  /** Record, version and checkpoint of a match, or null when unknown (or its record row is damaged: reported). */
  private head(id: string): { record: MatchRecord; version: number; checkpoint: Checkpoint | null } | null {
    if (!SAFE_ID.test(id)) return null;
    const row = this.reading(id, 1, () => this.q.match.get(id) as { record: string; version: number; checkpoint: string | null } | undefined);
    if (!row) return null;
    let record: MatchRecord;
    try {
      const stored = JSON.parse(row.record) as MatchRecord;
      if (typeof stored !== 'object' || stored === null || stored.id !== id) throw new Error('not a match record');
      record = { ...stored, rulesVersion: storedRulesVersion(stored.rulesVersion) };
    } catch (err) {
      this.health.damaged({ kind: 'match', id, version: 0, reason: `match record: ${(err as Error).message}` });
      throw new StoreRefusal('damaged', `match ${id}: its stored record is damaged`);
    }
    let checkpoint: Checkpoint | null = null;
    if (row.checkpoint) {
      try {
        checkpoint = JSON.parse(row.checkpoint) as Checkpoint;
      } catch {
        checkpoint = null; // Not the truth: the log is replayed instead, and a new one is saved later.
      }
    }
    return { record, version: row.version, checkpoint };
  }

  /** How many leading steps of the match can be read (its version, or up to a damaged row found earlier). */
  private readableLength(id: string, version: number): number {
    const d = this.damagedAt.get(id);
    return d === undefined ? version : Math.min(version, d - 1);
  }

  /** Steps `from + 1 … to`, stopping before the first row that does not parse or is out of sequence (reported). */
  private readSteps(id: string, from: number, to: number): StoredStep[] {
    const out: StoredStep[] = [];
    if (to <= from) return out;
    let expected = from + 1;
    const rows = this.q.steps.iterate(id, from, to) as IterableIterator<StepRow>;
    for (;;) {
      let next: IteratorResult<StepRow>;
      try {
        next = rows.next();
      } catch (err) {
        // A damaged page: the log is readable up to the step before it.
        if (!isCorrupt(err)) throw err;
        try {
          rows.return?.();
        } catch {
          // Already ended by the error.
        }
        this.markDamaged(id, expected, `page unreadable: ${(err as Error).message}`);
        break;
      }
      if (next.done) break;
      const row = next.value;
      let reason: string | null = null;
      let step: unknown;
      if (row.version !== expected) reason = `version ${expected} is missing`;
      else {
        try {
          step = JSON.parse(row.step);
          if (typeof step !== 'object' || step === null || typeof row.step_id !== 'string' || typeof row.at !== 'number') reason = 'not a step';
        } catch (err) {
          reason = (err as Error).message;
        }
      }
      if (reason !== null) {
        this.markDamaged(id, expected, reason);
        rows.return?.();
        break;
      }
      out.push({ stepId: row.step_id, step: step as StoredStep['step'], at: row.at });
      expected++;
    }
    if (out.length < to - from && !this.damagedAt.has(id)) this.markDamaged(id, from + out.length + 1, 'step row missing');
    return out;
  }

  private markDamaged(id: string, version: number, reason: string): void {
    const was = this.damagedAt.get(id);
    if (was !== undefined && was <= version) return;
    this.damagedAt.set(id, version);
    this.health.damaged({ kind: 'match', id, version, reason: `step row: ${reason}` });
  }
}

/**
 * Tournament store over the `events` and `event_links` tables of a `SqliteDb` (the tables keep the API's word
 * for a tournament, "event": renaming them would move every existing database for no reader's gain).
 */
export class SqliteTournamentStore implements TournamentStore {
  readonly kind = 'sqlite' as const;
  private readonly db: Database.Database;
  private readonly q;

  constructor(private readonly owner: SqliteDb) {
    this.db = owner.db;
    const db = this.db;
    this.q = {
      insert: db.prepare('INSERT INTO events (id, doc, version, listing, updated_at) VALUES (?, ?, ?, ?, ?)'),
      get: db.prepare('SELECT doc, version FROM events WHERE id = ?'),
      version: db.prepare('SELECT version FROM events WHERE id = ?'),
      update: db.prepare('UPDATE events SET doc = ?, version = ?, listing = ?, updated_at = ? WHERE id = ? AND version = ?'),
      link: db.prepare('INSERT OR IGNORE INTO event_links (match_id, event_id) VALUES (?, ?)'),
      unlink: db.prepare('DELETE FROM event_links WHERE match_id = ? AND event_id = ?'),
      ofMatch: db.prepare('SELECT event_id FROM event_links WHERE match_id = ?'),
      list: db.prepare('SELECT id, listing FROM events ORDER BY updated_at DESC LIMIT ?'),
    };
  }

  async createTournament(doc: TournamentDoc): Promise<void> {
    if (!SAFE_ID.test(doc.id)) throw new Error(`bad event id ${doc.id}`);
    this.owner.write(() =>
      this.db
        .transaction(() => {
          this.q.insert.run(doc.id, JSON.stringify(doc), doc.version, JSON.stringify(listingOf(doc)), doc.updatedAt);
          for (const m of doc.matches) this.q.link.run(m.id, doc.id);
        })
        .immediate(),
    );
  }

  async loadTournament(id: string): Promise<TournamentDoc | null> {
    if (!SAFE_ID.test(id)) return null;
    const row = this.q.get.get(id) as { doc: string } | undefined;
    if (!row) return null;
    try {
      const doc = JSON.parse(row.doc) as TournamentDoc;
      if (typeof doc !== 'object' || doc === null || doc.id !== id) throw new Error('not an event document');
      return doc;
    } catch (err) {
      this.owner.health.damaged({ kind: 'event', id, reason: `event document: ${(err as Error).message}` });
      throw new StoreRefusal('damaged', `event ${id}: its stored document is damaged`);
    }
  }

  async saveTournament(doc: TournamentDoc, expectedVersion: number, links: LinkChange): Promise<SaveResult> {
    return this.owner.write(() =>
      this.db
        .transaction((): SaveResult => {
          const cur = this.q.version.get(doc.id) as { version: number } | undefined;
          if (!cur) throw new Error(`event ${doc.id} is not in the store`);
          if (cur.version !== expectedVersion) return { status: 'stale', version: cur.version };
          this.q.update.run(JSON.stringify(doc), doc.version, JSON.stringify(listingOf(doc)), doc.updatedAt, doc.id, expectedVersion);
          for (const m of links.linked) this.q.link.run(m, doc.id);
          for (const m of links.unlinked) this.q.unlink.run(m, doc.id);
          return { status: 'ok', version: doc.version };
        })
        .immediate(),
    );
  }

  async tournamentsOfMatch(matchId: string): Promise<string[]> {
    return (this.q.ofMatch.all(matchId) as { event_id: string }[]).map((r) => r.event_id);
  }

  async listTournaments(limit: number): Promise<EventListing[]> {
    const out: EventListing[] = [];
    for (const row of this.q.list.iterate(limit) as Iterable<{ id: string; listing: string }>) {
      try {
        out.push(JSON.parse(row.listing) as EventListing);
      } catch (err) {
        this.owner.health.damaged({ kind: 'event', id: row.id, reason: `listing row: ${(err as Error).message}` });
      }
    }
    return out;
  }

  async close(): Promise<void> {
    this.owner.close();
  }
}

/** Sponsors' logos in the `sponsor_images` table of a `SqliteDb`. */
export class SqliteSponsorStore implements SponsorStore {
  private readonly q;

  constructor(private readonly owner: SqliteDb) {
    const db = owner.db;
    this.q = {
      putImage: db.prepare(
        'INSERT INTO sponsor_images (event_id, sponsor_id, type, bytes) VALUES (?, ?, ?, ?) ON CONFLICT (event_id, sponsor_id) DO UPDATE SET type = excluded.type, bytes = excluded.bytes',
      ),
      image: db.prepare('SELECT type, bytes FROM sponsor_images WHERE event_id = ? AND sponsor_id = ?'),
      dropImage: db.prepare('DELETE FROM sponsor_images WHERE event_id = ? AND sponsor_id = ?'),
    };
  }

  async put(eventId: string, sponsorId: string, image: SponsorImage): Promise<void> {
    if (!SAFE_ID.test(eventId) || !SAFE_ID.test(sponsorId)) throw new Error(`bad sponsor id ${eventId}/${sponsorId}`);
    this.owner.write(() => this.q.putImage.run(eventId, sponsorId, image.type, image.bytes));
  }

  async load(eventId: string, sponsorId: string): Promise<SponsorImage | null> {
    if (!SAFE_ID.test(eventId) || !SAFE_ID.test(sponsorId)) return null;
    const row = this.q.image.get(eventId, sponsorId) as { type: SponsorImage['type']; bytes: Buffer } | undefined;
    return row ? { type: row.type, bytes: row.bytes } : null;
  }

  async delete(eventId: string, sponsorId: string): Promise<void> {
    if (!SAFE_ID.test(eventId) || !SAFE_ID.test(sponsorId)) return;
    this.owner.write(() => this.q.dropImage.run(eventId, sponsorId));
  }
}

/**
 * Shot clocks in the `clocks` table of a `SqliteDb`: one row per match, its document and revision; the
 * compare-and-set is one IMMEDIATE transaction.
 */
export class SqliteShotClockStore implements ShotClockStore {
  private readonly q;

  constructor(private readonly owner: SqliteDb) {
    const db = owner.db;
    this.q = {
      get: db.prepare('SELECT doc FROM clocks WHERE match_id = ?'),
      revision: db.prepare('SELECT revision FROM clocks WHERE match_id = ?'),
      put: db.prepare(
        'INSERT INTO clocks (match_id, doc, revision) VALUES (?, ?, ?) ON CONFLICT (match_id) DO UPDATE SET doc = excluded.doc, revision = excluded.revision',
      ),
    };
  }

  async read(matchId: string): Promise<ShotClockDoc | null> {
    const row = this.q.get.get(matchId) as { doc: string } | undefined;
    return row ? (JSON.parse(row.doc) as ShotClockDoc) : null;
  }

  async write(matchId: string, doc: ShotClockDoc, expectedRevision: number): Promise<boolean> {
    if (!SAFE_ID.test(matchId)) throw new Error(`bad match id ${matchId}`);
    const text = JSON.stringify(doc);
    return this.owner.write(() =>
      this.owner.db
        .transaction((): boolean => {
          const cur = this.q.revision.get(matchId) as { revision: number } | undefined;
          if ((cur?.revision ?? 0) !== expectedRevision) return false;
          this.q.put.run(matchId, text, doc.revision);
          return true;
        })
        .immediate(),
    );
  }
}
