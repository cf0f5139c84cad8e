/**
 * The draw store in the embedded SQLite database (beside the match and event stores, on the same connection).
 * Tables (made here when missing): `draws` (one row per event: definition, settings, version) and
 * `draw_entries` (event, seq, entry JSON). A create or a change is one transaction: the version check, the new
 * entries and the settings commit together or not at all.
 */
import type Database from 'better-sqlite3';
import type { DrawChange, DrawDoc, DrawSaveResult, DrawStore } from './draw-store';

const SCHEMA = `
CREATE TABLE IF NOT EXISTS draws (
  event_id TEXT PRIMARY KEY,
  definition TEXT NOT NULL,
  settings TEXT NOT NULL,
  version INTEGER NOT NULL,
  created_at INTEGER NOT NULL
);
CREATE TABLE IF NOT EXISTS draw_entries (
  event_id TEXT NOT NULL,
  seq INTEGER NOT NULL,
  entry TEXT NOT NULL,
  PRIMARY KEY (event_id, seq)
);
`;

export class SqliteDrawStore implements DrawStore {
  readonly kind = 'sqlite' as const;

  /** @param db an open better-sqlite3 connection (the embedded store's: `SqliteDb.db`). */
  constructor(private readonly db: Database.Database) {
    db.exec(SCHEMA);
  }

  async create(doc: Omit<DrawDoc, 'version' | 'entries'>, replacing?: number): Promise<DrawSaveResult> {
    return this.db
      .transaction((): DrawSaveResult => {
        const cur = this.version(doc.eventId);
        if (cur === null ? replacing !== undefined : cur !== replacing) return { status: 'stale', version: cur ?? -1 };
        this.db.prepare('DELETE FROM draw_entries WHERE event_id = ?').run(doc.eventId);
        this.db
          .prepare(
            'INSERT INTO draws (event_id, definition, settings, version, created_at) VALUES (?, ?, ?, 0, ?) ON CONFLICT (event_id) DO UPDATE SET definition = excluded.definition, settings = excluded.settings, version = 0, created_at = excluded.created_at',
          )
          .run(doc.eventId, JSON.stringify(doc.definition), JSON.stringify(doc.settings), doc.createdAt);
        return { status: 'ok', version: 0 };
      })
      .immediate();
  }

  async load(eventId: string): Promise<DrawDoc | null> {
    return this.db
      .transaction(() => {
        const row = this.db.prepare('SELECT definition, settings, version, created_at FROM draws WHERE event_id = ?').get(eventId) as
          { definition: string; settings: string; version: number; created_at: number } | undefined;
        if (!row) return null;
        const entries = (this.db.prepare('SELECT entry FROM draw_entries WHERE event_id = ? ORDER BY seq').all(eventId) as { entry: string }[]).map((r) =>
          JSON.parse(r.entry),
        );
        return {
          eventId,
          definition: JSON.parse(row.definition),
          settings: JSON.parse(row.settings),
          entries,
          version: row.version,
          createdAt: row.created_at,
        };
      })
      .deferred();
  }

  async change(eventId: string, expected: number, change: DrawChange): Promise<DrawSaveResult> {
    return this.db
      .transaction((): DrawSaveResult => {
        const cur = this.version(eventId);
        if (cur !== expected) return { status: 'stale', version: cur ?? -1 };
        if (change.entries?.length) {
          const { n } = this.db.prepare('SELECT COUNT(*) AS n FROM draw_entries WHERE event_id = ?').get(eventId) as { n: number };
          const put = this.db.prepare('INSERT INTO draw_entries (event_id, seq, entry) VALUES (?, ?, ?)');
          change.entries.forEach((e, i) => put.run(eventId, n + i, JSON.stringify(e)));
        }
        if (change.settings) this.db.prepare('UPDATE draws SET settings = ? WHERE event_id = ?').run(JSON.stringify(change.settings), eventId);
        this.db.prepare('UPDATE draws SET version = version + 1 WHERE event_id = ?').run(eventId);
        return { status: 'ok', version: expected + 1 };
      })
      .immediate();
  }

  private version(eventId: string): number | null {
    return (this.db.prepare('SELECT version FROM draws WHERE event_id = ?').get(eventId) as { version: number } | undefined)?.version ?? null;
  }

  /** The connection belongs to the embedded store (SqliteDb), which closes it. */
  async close(): Promise<void> {}
}
