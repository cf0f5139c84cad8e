/**
 * Scheduled backups of the embedded store (`BACKUP_EVERY_MINUTES`, `BACKUP_KEEP`): every so often, SQLite's
 * online backup (better-sqlite3 `db.backup()`, page by page while the server keeps writing) of `cuecast.db` into
 * `DATA_DIR/backups/cuecast-<UTC time>.db`. A backup is written under a `.partial` name and renamed when whole, so
 * a file named `.db` there is always a complete, consistent database; only the newest `keep` are kept.
 * Restore: stop the server, put a backup in place as `DATA_DIR/cuecast.db` (removing `cuecast.db-wal` and
 * `-shm`), start it (docs/operators.md, Backups).
 */
import { mkdirSync, readdirSync, renameSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import type Database from 'better-sqlite3';

/** File names of finished backups: `cuecast-2026-12-03T16-45-00-000Z.db` (sorting by name sorts by time). */
const BACKUP_NAME = /^cuecast-\d{4}-\d\d-\d\dT\d\d-\d\d-\d\d-\d{3}Z\.db$/;

export interface BackupOptions {
  /** Where the backups go (`DATA_DIR/backups`); made when missing. */
  dir: string;
  /** Time between backups, ms (≥ 1). */
  everyMs: number;
  /** How many of the newest backups are kept (≥ 1); older ones are deleted after each new one. */
  keep: number;
  /** Hears each finished backup (its path) and each failure (the backup is tried again at the next time). */
  onBackup?(path: string): void;
  onError?(err: Error): void;
  /** The time a backup is named by (default now). */
  now?: () => Date;
}

/** Scheduled online backups of one open database. */
export class SqliteBackups {
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<string | null> | null = null;

  constructor(
    private readonly db: Database.Database,
    private readonly opts: BackupOptions,
  ) {
    if (!(opts.everyMs >= 1) || !Number.isInteger(opts.keep) || opts.keep < 1)
      throw new Error(`backups: everyMs must be ≥ 1 and keep a positive integer (got ${opts.everyMs}, ${opts.keep})`);
  }

  /** Back up every `everyMs` from now on (the timer does not keep the process alive). */
  start(): void {
    this.timer ??= setInterval(() => void this.backupNow().catch(() => undefined), this.opts.everyMs);
    this.timer.unref();
  }

  /** No more backups (one in progress ends by itself, or stops when the database closes, leaving no file). */
  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }

  /**
   * Back up now (one at a time: a call during a backup waits for it and returns its path), then delete all but the
   * newest `keep` backups. @returns the new backup's path, or null when the database is closed.
   * @throws the disk's error (reported to `onError` too); no partial file is left.
   */
  backupNow(): Promise<string | null> {
    this.running ??= this.run().finally(() => (this.running = null));
    return this.running;
  }

  /** The finished backups, oldest first. */
  list(): string[] {
    try {
      return readdirSync(this.opts.dir)
        .filter((f) => BACKUP_NAME.test(f))
        .sort()
        .map((f) => join(this.opts.dir, f));
    } catch {
      return [];
    }
  }

  private async run(): Promise<string | null> {
    if (!this.db.open) return null;
    const name = `cuecast-${(this.opts.now?.() ?? new Date()).toISOString().replace(/[:.]/g, '-')}.db`;
    const path = join(this.opts.dir, name);
    const partial = `${path}.partial`;
    try {
      mkdirSync(this.opts.dir, { recursive: true });
      await this.db.backup(partial);
      renameSync(partial, path);
    } catch (err) {
      rmSync(partial, { force: true });
      if (!this.db.open) return null; // closed during the backup (shutdown): not a failure
      const e = err instanceof Error ? err : new Error(String(err));
      this.opts.onError?.(e);
      throw e;
    }
    for (const old of this.list().slice(0, -this.opts.keep)) rmSync(old, { force: true });
    this.opts.onBackup?.(path);
    return path;
  }
}
