/**
 * The webhook store in the embedded SQLite database (same connection as the other stores). Table (made here when
 * missing): `webhooks` (event, id, url, secret, created, status JSON), one row per hook. `add` counts and inserts
 * in one transaction.
 */
import type Database from 'better-sqlite3';
import type { WebhookStatus } from '../../shared/protocol/webhooks';
import { freshStatus, type StoredWebhook, type StoredWebhookWithStatus, type WebhookStore } from './webhook-store';

const SCHEMA = `
CREATE TABLE IF NOT EXISTS webhooks (
  event_id TEXT NOT NULL,
  id TEXT NOT NULL,
  url TEXT NOT NULL,
  secret TEXT NOT NULL,
  created_at INTEGER NOT NULL,
  status TEXT NOT NULL,
  PRIMARY KEY (event_id, id)
);
`;

interface Row {
  id: string;
  url: string;
  secret: string;
  created_at: number;
  status: string;
}

export class SqliteWebhookStore implements WebhookStore {
  /** @param db an open better-sqlite3 connection (the embedded store's: `SqliteDb.db`). */
  constructor(private readonly db: Database.Database) {
    db.exec(SCHEMA);
  }

  async add(eventId: string, hook: StoredWebhook, max: number): Promise<boolean> {
    return this.db
      .transaction((): boolean => {
        const { n } = this.db.prepare('SELECT COUNT(*) AS n FROM webhooks WHERE event_id = ?').get(eventId) as { n: number };
        if (n >= max) return false;
        this.db
          .prepare('INSERT INTO webhooks (event_id, id, url, secret, created_at, status) VALUES (?, ?, ?, ?, ?, ?)')
          .run(eventId, hook.id, hook.url, hook.secret, hook.createdAt, JSON.stringify(freshStatus()));
        return true;
      })
      .immediate();
  }

  async list(eventId: string): Promise<StoredWebhookWithStatus[]> {
    const rows = this.db
      .prepare('SELECT id, url, secret, created_at, status FROM webhooks WHERE event_id = ? ORDER BY created_at, rowid')
      .all(eventId) as Row[];
    return rows.map((r) => ({ id: r.id, url: r.url, secret: r.secret, createdAt: r.created_at, status: JSON.parse(r.status) as WebhookStatus }));
  }

  async remove(eventId: string, id: string): Promise<boolean> {
    return this.db.prepare('DELETE FROM webhooks WHERE event_id = ? AND id = ?').run(eventId, id).changes > 0;
  }

  async setStatus(eventId: string, id: string, status: WebhookStatus): Promise<void> {
    this.db.prepare('UPDATE webhooks SET status = ? WHERE event_id = ? AND id = ?').run(JSON.stringify(status), eventId, id);
  }
}
