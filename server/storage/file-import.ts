/**
 * One-time imports of the older embedded file stores (the file store of earlier versions: `<id>.jsonl` match
 * logs and `events/<id>.json` event documents; the shot clocks' `clocks/<id>.json` documents) into the SQLite
 * database (./sqlite-store.ts), at start-up (`importFileStore`, `importClockFiles`). Each runs once per DATA_DIR
 * (a `meta` row, `file-import` or `clock-import`, marks it done, with what was imported) and in one transaction
 * (a crash during it imports nothing, and the next start tries again). The files are kept as they are (a
 * backup; nothing reads them afterwards).
 *
 * Damage stays local: a match log is imported up to its last line that parses with the right version (the
 * rest is reported); a log whose first line is not a match record, or an event file that does not parse, is
 * skipped and reported. Checkpoints are not imported (the server replays the log and stores new ones).
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { SAFE_ID } from '../../shared/protocol/limits';
import type { MatchSummary } from '../../shared/protocol/wire';
import { listingOf, type TournamentDoc, type MatchRecord, type ShotClockDoc } from './ports';
import type { SqliteDb } from './sqlite-store';

/** What an import did: counts, and the files (or lines) it could not read. */
export interface FileImport {
  at: number;
  matches: number;
  steps: number;
  events: number;
  skipped: string[];
}

/** The meta key marking that DATA_DIR's files were imported. */
export const FILE_IMPORT_KEY = 'file-import';

/** The listing row of a match after `steps` (the server's engine replays them); throws when they do not replay. */
export type Summarise = (record: MatchRecord, steps: readonly unknown[], updatedAt: number) => MatchSummary;

/**
 * Import the file store's data under `dir` into `sqlite`, unless done before. `summarise` makes each match's
 * listing row (when it throws, the file store's own `<id>.snapshot.json` row is used).
 * @returns what was imported, or null when it was done before (or there were no files).
 */
export function importFileStore(dir: string, sqlite: SqliteDb, summarise: Summarise, now = Date.now()): FileImport | null {
  if (sqlite.meta(FILE_IMPORT_KEY) !== undefined) return null;
  const names = readdirSync(dir).filter((n) => n.endsWith('.jsonl') && SAFE_ID.test(n.slice(0, -'.jsonl'.length)));
  const eventDir = join(dir, 'events');
  const eventNames = existsSync(eventDir) ? readdirSync(eventDir).filter((n) => n.endsWith('.json') && SAFE_ID.test(n.slice(0, -'.json'.length))) : [];
  if (names.length === 0 && eventNames.length === 0) return null;
  const done: FileImport = { at: now, matches: 0, steps: 0, events: 0, skipped: [] };
  const db = sqlite.db;
  const insertMatch = db.prepare('INSERT OR IGNORE INTO matches (id, record, version, summary, updated_at) VALUES (?, ?, ?, ?, ?)');
  const insertStep = db.prepare('INSERT INTO steps (match_id, version, step_id, step, at) VALUES (?, ?, ?, ?, ?)');
  const insertEvent = db.prepare('INSERT OR IGNORE INTO events (id, doc, version, listing, updated_at) VALUES (?, ?, ?, ?, ?)');
  const link = db.prepare('INSERT OR IGNORE INTO event_links (match_id, event_id) VALUES (?, ?)');
  sqlite.write(() =>
    db
      .transaction(() => {
        for (const name of names) {
          const id = name.slice(0, -'.jsonl'.length);
          const lines = readFileSync(join(dir, name), 'utf8').split('\n');
          let record: MatchRecord;
          try {
            record = (JSON.parse(lines[0]!) as { match: MatchRecord }).match;
            if (record?.id !== id) throw new Error('no match record');
          } catch (err) {
            done.skipped.push(`${name}: line 1: ${(err as Error).message}`);
            continue;
          }
          const seen = new Set<string>();
          const steps: { e: string; s: unknown; t: number }[] = [];
          for (let i = 1; i < lines.length; i++) {
            if (lines[i] === '') continue;
            try {
              const row = JSON.parse(lines[i]!) as { v: number; e: string; s: unknown; t: number };
              if (row.v !== steps.length + 1) throw new Error(`version ${row.v}, expected ${steps.length + 1}`);
              if (typeof row.e !== 'string' || seen.has(row.e) || typeof row.s !== 'object' || row.s === null) throw new Error('not a step');
              seen.add(row.e);
              steps.push({ e: row.e, s: row.s, t: Number(row.t) || record.createdAt });
            } catch (err) {
              // An unparsable line ends the readable log (a torn last line was never acknowledged).
              if (lines.slice(i + 1).some((l) => l !== '')) done.skipped.push(`${name}: line ${i + 1} and after: ${(err as Error).message}`);
              break;
            }
          }
          const updatedAt = steps.at(-1)?.t ?? record.createdAt;
          let listed: MatchSummary | null;
          try {
            listed = summarise(
              record,
              steps.map((s) => s.s),
              updatedAt,
            );
          } catch (err) {
            listed = readSummary(dir, id);
            done.skipped.push(`${name}: listing row kept from the snapshot file (${(err as Error).message})`);
          }
          if (!listed) {
            done.skipped.push(`${name}: no listing row`);
            continue;
          }
          if (insertMatch.run(id, JSON.stringify(record), steps.length, JSON.stringify(listed), updatedAt).changes === 0) continue;
          steps.forEach((s, i) => insertStep.run(id, i + 1, s.e, JSON.stringify(s.s), s.t));
          done.matches++;
          done.steps += steps.length;
        }
        for (const name of eventNames) {
          const text = readFileSync(join(eventDir, name), 'utf8');
          if (text === '') continue; // a creation that crashed before it was written: no event
          try {
            const doc = JSON.parse(text) as TournamentDoc;
            if (doc?.id !== name.slice(0, -'.json'.length) || !Array.isArray(doc.matches)) throw new Error('not an event document');
            if (insertEvent.run(doc.id, text, doc.version, JSON.stringify(listingOf(doc)), doc.updatedAt).changes === 0) continue;
            for (const m of doc.matches) link.run(m.id, doc.id);
            done.events++;
          } catch (err) {
            done.skipped.push(`events/${name}: ${(err as Error).message}`);
          }
        }
        sqlite.setMeta(FILE_IMPORT_KEY, JSON.stringify(done));
      })
      .immediate(),
  );
  return done;
}

/** The listing row of `<id>.snapshot.json`, or null when it is missing or unreadable. */
function readSummary(dir: string, id: string): MatchSummary | null {
  try {
    const s = (JSON.parse(readFileSync(join(dir, `${id}.snapshot.json`), 'utf8')) as { summary: MatchSummary }).summary;
    return s?.id === id ? s : null;
  } catch {
    return null;
  }
}

/** What the clock import did: how many documents, and the files it could not read. */
export interface ClockImport {
  at: number;
  clocks: number;
  skipped: string[];
}

/** The meta key marking that DATA_DIR's `clocks/*.json` were imported. */
export const CLOCK_IMPORT_KEY = 'clock-import';

/**
 * Import the shot clocks of an earlier version (one JSON document per match under `<dir>/clocks/`) into the
 * `clocks` table of `sqlite`, once per DATA_DIR (a `meta` row `clock-import` marks it done) and in one
 * transaction; a clock already in the table is kept. A file that does not parse as a clock document is skipped
 * and reported. The files are kept as they are (nothing reads them afterwards).
 * @returns what was imported, or null when it was done before (or there were no files).
 */
export function importClockFiles(dir: string, sqlite: SqliteDb, now = Date.now()): ClockImport | null {
  if (sqlite.meta(CLOCK_IMPORT_KEY) !== undefined) return null;
  const clockDir = join(dir, 'clocks');
  const names = existsSync(clockDir) ? readdirSync(clockDir).filter((n) => n.endsWith('.json') && SAFE_ID.test(n.slice(0, -'.json'.length))) : [];
  if (names.length === 0) return null;
  const done: ClockImport = { at: now, clocks: 0, skipped: [] };
  const insert = sqlite.db.prepare('INSERT OR IGNORE INTO clocks (match_id, doc, revision) VALUES (?, ?, ?)');
  sqlite.write(() =>
    sqlite.db
      .transaction(() => {
        for (const name of names) {
          try {
            const text = readFileSync(join(clockDir, name), 'utf8');
            const doc = JSON.parse(text) as ShotClockDoc;
            if (
              typeof doc !== 'object' ||
              doc === null ||
              !Number.isInteger(doc.revision) ||
              doc.revision < 1 ||
              typeof doc.clock !== 'object' ||
              doc.clock === null
            )
              throw new Error('not a shot clock document');
            if (insert.run(name.slice(0, -'.json'.length), text, doc.revision).changes === 1) done.clocks++;
          } catch (err) {
            done.skipped.push(`clocks/${name}: ${(err as Error).message}`);
          }
        }
        sqlite.setMeta(CLOCK_IMPORT_KEY, JSON.stringify(done));
      })
      .immediate(),
  );
  return done;
}
