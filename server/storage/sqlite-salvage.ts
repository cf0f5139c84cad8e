/**
 * Salvage of a damaged embedded database (issue 30). A damaged page belongs to one b-tree that every match
 * shares (the `steps` table holds all matches' rows): SQLite may need that page for a write of a healthy match
 * too (a page split balances a leaf with its neighbours), so a healthy, fully readable match can be refused with
 * `SQLITE_CORRUPT`. When the start-up check finds damage, the server therefore copies every row it can still
 * read into a new database file and keeps the damaged file aside:
 *
 * - `DATA_DIR/cuecast.db` becomes the new file: every table (its schema read from the old file, so tables added
 *   later are copied too), every readable row, fresh indexes (an index page that was damaged is simply rebuilt);
 * - the damaged file (with its `-wal` and `-shm`) moves to `DATA_DIR/damaged/cuecast-<UTC time>.db`, for a
 *   forensic look or a manual rescue; nothing is deleted;
 * - a match that lost a step row is recorded in the `damaged_matches` table with the first version it lost: it
 *   stays read-only up to the step before it and answers `store-damaged` (restore it from a backup) across
 *   restarts; rows of other tables that could not be read are reported as lost.
 *
 * Damage found on read (a file over the quick_check size, or damage after start) is not salvaged while the
 * server runs: the match it touches is marked damaged as before; a restart salvages when the check sees it.
 */
import { closeSync, existsSync, fsyncSync, mkdirSync, openSync, renameSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';

/** What a salvage did. */
export interface SalvageReport {
  /** Where the damaged file was moved (`DATA_DIR/damaged/cuecast-<time>.db`). */
  movedTo: string;
  /** Rows copied per table. */
  copied: Record<string, number>;
  /** Rows (or whole tables) that could not be read: table, key when known, why. */
  lost: { table: string; key?: string; reason: string }[];
  /** Matches that lost step rows: id and the first version lost (read-only before it). */
  damagedMatches: { id: string; fromVersion: number }[];
  ms: number;
}

/** The table a salvage (and the store) keeps the damaged matches in; created by the store's schema too. */
export const DAMAGED_MATCHES_SQL = `CREATE TABLE IF NOT EXISTS damaged_matches (
  match_id TEXT PRIMARY KEY,
  from_version INTEGER NOT NULL,
  reason TEXT NOT NULL
) WITHOUT ROWID;`;

const quote = (name: string) => `"${name.replace(/"/g, '""')}"`;

/**
 * Copy every readable row of `dir/<file>` into a new database and put it in the old one's place (see the
 * module's comment). The database must not be open elsewhere. `file` is the store's file name (`cuecast.db`).
 * @throws when the file cannot be opened at all or the new file cannot be written (the old file is then left
 *   where it was, untouched).
 */
export function salvageDatabase(dir: string, file: string, now: Date = new Date()): SalvageReport {
  const t0 = Date.now();
  const oldPath = join(dir, file);
  const newPath = join(dir, `${file}.salvage`);
  for (const suffix of ['', '-wal', '-shm', '-journal']) rmSync(newPath + suffix, { force: true });
  const copied: Record<string, number> = {};
  const lost: SalvageReport['lost'] = [];
  const damaged = new Map<string, number>();

  const out = new Database(newPath);
  try {
    out.pragma('journal_mode = DELETE');
    out.exec(`ATTACH DATABASE '${oldPath.replace(/'/g, "''")}' AS old`);
    const schema = out
      .prepare("SELECT type, name, tbl_name, sql FROM old.sqlite_master WHERE sql IS NOT NULL AND name NOT LIKE 'sqlite_%' ORDER BY type = 'table' DESC")
      .all() as { type: string; name: string; tbl_name: string; sql: string }[];
    const tables = schema.filter((s) => s.type === 'table');
    // Each copy is its own statement (a statement that meets a damaged page rolls back alone); the file is
    // new and synced once at the end, so no sync per statement.
    out.pragma('synchronous = OFF');
    for (const t of tables) out.exec(t.sql);
    for (const t of tables) copied[t.name] = copyTable(out, t.name, lost);
    out.transaction(() => {
      out.exec(DAMAGED_MATCHES_SQL);
      // Earlier marks stay; a match with a gap in its versions (or short of its head) lost rows now.
      for (const r of out.prepare('SELECT match_id, from_version FROM damaged_matches').all() as { match_id: string; from_version: number }[])
        damaged.set(r.match_id, r.from_version);
      if (tables.some((t) => t.name === 'matches') && tables.some((t) => t.name === 'steps')) {
        const heads = out.prepare('SELECT id, version FROM matches').all() as { id: string; version: number }[];
        const versions = out.prepare('SELECT version FROM steps WHERE match_id = ? ORDER BY version');
        for (const { id, version } of heads) {
          let expected = 1;
          for (const r of versions.iterate(id) as Iterable<{ version: number }>) {
            if (r.version !== expected) break;
            expected++;
          }
          if (expected <= version) damaged.set(id, Math.min(damaged.get(id) ?? expected, expected));
        }
      }
      const mark = out.prepare(
        'INSERT INTO damaged_matches (match_id, from_version, reason) VALUES (?, ?, ?) ON CONFLICT (match_id) DO UPDATE SET from_version = excluded.from_version',
      );
      for (const [id, v] of damaged) mark.run(id, v, `step rows from version ${v} were on a damaged page (salvaged ${now.toISOString()})`);
      // Indexes last, over the copied rows: a damaged index page is rebuilt, not copied.
      for (const s of schema) if (s.type === 'index') out.exec(s.sql);
    })();
    out.exec('DETACH DATABASE old');
    out.pragma('synchronous = FULL');
  } catch (err) {
    out.close();
    for (const suffix of ['', '-journal']) rmSync(newPath + suffix, { force: true });
    throw err;
  }
  out.close();
  const fd = openSync(newPath, 'r+');
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }

  const aside = join(dir, 'damaged');
  mkdirSync(aside, { recursive: true });
  const movedTo = join(aside, `cuecast-${now.toISOString().replace(/[:.]/g, '-')}.db`);
  renameSync(oldPath, movedTo);
  for (const suffix of ['-wal', '-shm']) if (existsSync(oldPath + suffix)) renameSync(oldPath + suffix, movedTo + suffix);
  renameSync(newPath, oldPath);
  return { movedTo, copied, lost, damagedMatches: [...damaged].map(([id, fromVersion]) => ({ id, fromVersion })), ms: Date.now() - t0 };
}

/**
 * Copy table `name` from `old` to `main`: in one statement when every row reads; otherwise row by row by its
 * key (the primary key's columns, or the rowid), skipping the rows that do not read (noted in `lost`).
 */
function copyTable(db: Database.Database, name: string, lost: SalvageReport['lost']): number {
  const t = quote(name);
  try {
    return db.prepare(`INSERT INTO main.${t} SELECT * FROM old.${t}`).run().changes;
  } catch (err) {
    // The failed statement rolled back whole: main's table is empty again.
    const cols = db.prepare(`SELECT name, pk FROM pragma_table_info(?, 'old')`).all(name) as { name: string; pk: number }[];
    const pk = cols
      .filter((c) => c.pk > 0)
      .sort((a, b) => a.pk - b.pk)
      .map((c) => quote(c.name));
    const withoutRowid = (db.prepare('SELECT sql FROM old.sqlite_master WHERE name = ?').get(name) as { sql: string }).sql.match(/WITHOUT\s+ROWID/i);
    const keyCols = pk.length && withoutRowid ? pk : ['rowid'];
    // The keys through a unique index first: an index is a b-tree of its own that the damaged table page is not
    // part of, and reading only its own columns (a covering scan) never touches the table. SQLite would rather
    // scan the table for them, which stops at the damaged page. Last, the primary key (or rowid) from the table.
    const indexes = db.prepare(`SELECT name FROM pragma_index_list(?, 'old') WHERE "unique" = 1 AND partial = 0 ORDER BY origin = 'pk' DESC`).all(name) as {
      name: string;
    }[];
    const tries: { cols: string[]; hint: string }[] = indexes.map((ix) => ({
      cols: (db.prepare(`SELECT name FROM pragma_index_info(?, 'old') ORDER BY seqno`).all(ix.name) as { name: string | null }[]).map((c) =>
        c.name === null ? 'rowid' : quote(c.name),
      ),
      hint: `INDEXED BY ${quote(ix.name)}`,
    }));
    tries.push({ cols: pk.length ? pk : keyCols, hint: '' });
    let keys: unknown[][] | null = null;
    let where = '';
    const why: string[] = [(err as Error).message];
    for (const { cols, hint } of tries) {
      if (cols.includes('rowid') && withoutRowid) continue;
      try {
        keys = db
          .prepare(`SELECT ${cols.join(', ')} FROM old.${t} ${hint}`)
          .raw()
          .all() as unknown[][];
        where = cols.map((c) => `${c} IS ?`).join(' AND ');
        break;
      } catch (e) {
        why.push((e as Error).message);
      }
    }
    if (!keys) {
      lost.push({ table: name, reason: `neither the table nor its keys can be read: ${why.join('; ')}` });
      return 0;
    }
    const one = db.prepare(`INSERT INTO main.${t} SELECT * FROM old.${t} WHERE ${where}`);
    let n = 0;
    for (const key of keys) {
      try {
        n += one.run(...key).changes;
      } catch (e) {
        lost.push({ table: name, key: key.join(' '), reason: (e as Error).message });
      }
    }
    return n;
  }
}
