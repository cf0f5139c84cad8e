/**
 * Scheduled backups of the embedded store (server/storage/sqlite-backup.ts; BACKUP_EVERY_MINUTES, BACKUP_KEEP),
 * on a real disk: backups come one after another by themselves, each a whole database under its final name
 * (never a `.partial` left), only the newest `keep` stay; and a restore — a backup put in place as
 * `DATA_DIR/cuecast.db` of a new directory — serves the same matches, tournaments, shot clocks and logos as the
 * server did when the backup was taken, though the database went on changing after it.
 */
import { copyFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import { openBackends } from '../../server/backends';
import { SqliteBackups } from '../../server/storage/sqlite-backup';
import { DB_FILE } from '../../server/storage/sqlite-store';
import { fill, servedOver } from '../helpers/migrate-fixture';
import { startTestServer, tempDirs } from '../helpers/server';
import { recordOk, services } from '../helpers/services';
import { legalSteps, SETUP } from '../helpers/server';

const dirs = tempDirs();
const silent = pino({ level: 'silent' });

/** The embedded stores of `dataDir` with the services over them, and a way to close them. */
async function embedded(dataDir: string) {
  const { store, bus } = await openBackends({ dataDir }, silent);
  return {
    s: services(store),
    close: async () => {
      await store.close();
      await bus.close();
    },
  };
}

describe('scheduled backups of the embedded store', () => {
  it('back up by themselves, each file whole, keeping the newest `keep`', async () => {
    const dataDir = dirs('backups-schedule');
    const e = await embedded(dataDir);
    const m = await e.s.matches.create(SETUP);
    for (const step of legalSteps(5)) await recordOk(e.s.matches, m, step);
    await e.close();

    const db = new Database(join(dataDir, DB_FILE));
    const made: string[] = [];
    const backups = new SqliteBackups(db, { dir: join(dataDir, 'backups'), everyMs: 100, keep: 2, onBackup: (p) => made.push(p) });
    backups.start();
    await expect.poll(() => made.length, { timeout: 30_000 }).toBeGreaterThanOrEqual(3);
    backups.stop();
    await backups.backupNow(); // one more, after the schedule stopped: still pruned to the newest two
    db.close();
    const files = readdirSync(join(dataDir, 'backups')).sort();
    expect(files).toHaveLength(2);
    expect(files.every((f) => /^cuecast-.*Z\.db$/.test(f))).toBe(true);
    expect(backups.list().map((p) => p.split('/').at(-1))).toEqual(files);
    // Each is a whole database holding the match and its steps.
    for (const f of files) {
      const copy = new Database(join(dataDir, 'backups', f), { readonly: true });
      expect(copy.pragma('integrity_check', { simple: true })).toBe('ok');
      copy.close();
    }
  });

  it('a restored backup serves what the server served when it was taken', async () => {
    const dataDir = dirs('backups-live');
    let e = await embedded(dataDir);
    await fill(e.s, { matches: 12, tournaments: 2, longEvery: 6 });
    await e.close();
    const server = await startTestServer({ dataDir });
    const atBackup = await servedOver(server);
    await server.close();

    // The backup, taken while the database is open (the online backup), then the database changes on.
    const db = new Database(join(dataDir, DB_FILE));
    const path = await new SqliteBackups(db, { dir: join(dataDir, 'backups'), everyMs: 60_000, keep: 3 }).backupNow();
    db.close();
    e = await embedded(dataDir);
    const later = await e.s.matches.create(SETUP);
    await recordOk(e.s.matches, later, legalSteps(1)[0]!);
    await e.close();

    // Restore into a new DATA_DIR: the backup in place as cuecast.db.
    const restored = dirs('backups-restored');
    copyFileSync(path!, join(restored, DB_FILE));
    const again = await startTestServer({ dataDir: restored });
    try {
      expect(await servedOver(again)).toEqual(atBackup);
    } finally {
      await again.close();
    }
  });
});
