/**
 * Embedded (single-instance) adapter of the match store: one append-only JSONL file per match under
 * `dir`. Line 1 holds the match record; each later line one accepted step `{v, e, s, t}` (`e` is the stepId: the stored name since the first version, kept so every file written before still loads). Every append
 * is fsynced before it resolves, so an acknowledged step survives a crash or a restart. A torn last line
 * (a crash mid-write, never acknowledged) is cut off when the file is next opened. The snapshot of each
 * match (listing row and state) lives in `<id>.snapshot.json`, rewritten atomically after each append; it
 * is not the source of truth (a crash may leave it one step behind until the next append). The engine's
 * checkpoint (`Checkpoint`) lives in `<id>.checkpoint.json`, rewritten atomically when the server saves one
 * (after the step's line when an append carries it: unlike the SQLite and Redis stores, not in one write with it).
 *
 * In memory it keeps, per open match, only what compare-and-append needs (the append handle, the version
 * and the stepId index), in the server's one keyed cache (server/matches/keyed-cache.ts), whose serial queue also
 * orders every read and append of a match; idle ones are closed (`evictIdle`) and opened again when used. The steps themselves are read from the file when asked for:
 * the live-match cache above holds them.
 */
import { mkdir, open, readdir, readFile, rename, writeFile, type FileHandle } from 'node:fs/promises';
import { join } from 'node:path';
import { KeyedCache } from '../matches/keyed-cache';
import { syncDir } from './durable';
import { carriedCheckpoint, openedRange, storedRulesVersion, type AppendExtras, type AppendResult, type Checkpoint, type LoadedLog, type MatchRecord, type MatchStore, type OpenedLog, type StoredStep, type StoredSnapshot } from './types';
import type { MatchSummary } from '../../shared/protocol/wire';
import { SAFE_ID } from '../../shared/protocol/limits';

/** What compare-and-append needs of an open match file. */
interface OpenLog {
  handle: FileHandle;
  version: number;
  stepIds: Map<string, number>;
  record: MatchRecord;
}

/** A match file as read: its record and steps, and how many leading bytes are whole lines. */
interface ReadLog extends LoadedLog {
  wholeBytes: number;
  totalBytes: number;
}

/** Match store over append-only files; one process only. */
export class FileStore implements MatchStore {
  readonly kind = 'file' as const;
  private readonly logs = new KeyedCache<OpenLog>((id) => this.openLog(id));
  private summaries: Map<string, MatchSummary> | null = null;
  private closed = false;

  constructor(private readonly dir: string) {}

  /** Create the data directory if needed. */
  async init(): Promise<void> {
    await mkdir(this.dir, { recursive: true });
  }

  private logPath(id: string): string {
    return join(this.dir, `${id}.jsonl`);
  }

  async create(record: MatchRecord, snapshot: StoredSnapshot): Promise<void> {
    if (!SAFE_ID.test(record.id)) throw new Error(`bad match id ${record.id}`);
    const handle = await open(this.logPath(record.id), 'wx');
    try {
      await handle.write(JSON.stringify({ match: record }) + '\n');
      await handle.sync();
    } catch (err) {
      await handle.close();
      throw err;
    }
    await syncDir(this.dir);
    this.logs.set(record.id, { handle, version: 0, stepIds: new Map(), record });
    await this.writeSnapshot(snapshot);
  }

  load(id: string): Promise<LoadedLog | null> {
    return this.serial(id, () => this.loadLocked(id));
  }

  /** Read a match file and open it for appends from this same read (cutting off a torn last line), unless it is open already. */
  private async loadLocked(id: string): Promise<LoadedLog | null> {
    const read = await this.read(id);
    if (!read) return null;
    await this.logs.get(id, () => this.openFrom(id, read));
    return { record: read.record, steps: read.steps };
  }

  private checkpointPath(id: string): string {
    return join(this.dir, `${id}.checkpoint.json`);
  }

  /** The stored checkpoint, or null when there is none or it cannot be read (it is rewritten later). */
  private async readCheckpoint(id: string): Promise<Checkpoint | null> {
    try {
      return JSON.parse(await readFile(this.checkpointPath(id), 'utf8')) as Checkpoint;
    } catch {
      return null;
    }
  }

  open(id: string, tail: number): Promise<OpenedLog | null> {
    return this.serial(id, async () => {
      const loaded = await this.loadLocked(id);
      if (!loaded) return null;
      const { checkpoint, from } = openedRange(await this.readCheckpoint(id), loaded.steps.length, tail);
      return { record: loaded.record, checkpoint, steps: loaded.steps.slice(from), from };
    });
  }

  stepsSince(id: string, version: number, upTo?: number): Promise<StoredStep[]> {
    return this.serial(id, async () => (await this.read(id))?.steps.slice(version, upTo) ?? []);
  }

  versionOfStep(id: string, stepId: string): Promise<number | undefined> {
    return this.serial(id, async () => (await this.logs.get(id))?.stepIds.get(stepId));
  }

  async saveCheckpoint(id: string, checkpoint: Checkpoint): Promise<void> {
    if (!SAFE_ID.test(id)) throw new Error(`bad match id ${id}`);
    const path = this.checkpointPath(id);
    await writeFile(path + '.tmp', JSON.stringify(checkpoint));
    await rename(path + '.tmp', path);
  }

  /**
   * Compare-and-append (see `MatchStore.append`). Not transactional: the step line is fsynced first, then the
   * snapshot and, when carried, the checkpoint file are rewritten. A checkpoint that cannot be written then is
   * left out (the step is on disk and is answered `ok`; loading replays the log from the older checkpoint).
   * This store is kept only for the one-time import into SQLite, which stores no checkpoint.
   */
  append(id: string, expectedVersion: number, entry: StoredStep, snapshot: StoredSnapshot, extras?: AppendExtras): Promise<AppendResult> {
    let checkpoint: Checkpoint | undefined;
    try {
      checkpoint = carriedCheckpoint(expectedVersion, extras);
    } catch (err) {
      return Promise.reject(err as Error);
    }
    return this.serial(id, async () => {
      const log = await this.logs.get(id);
      if (!log) throw new Error(`match ${id} is not in the store`);
      const dup = log.stepIds.get(entry.stepId);
      if (dup !== undefined) return { status: 'duplicate', version: dup };
      if (log.version !== expectedVersion) return { status: 'stale', version: log.version };
      const version = log.version + 1;
      await log.handle.write(JSON.stringify({ v: version, e: entry.stepId, s: entry.step, t: entry.at }) + '\n');
      await log.handle.datasync();
      log.version = version;
      log.stepIds.set(entry.stepId, version);
      await this.writeSnapshot(snapshot);
      if (checkpoint) await this.saveCheckpoint(id, checkpoint).catch(() => undefined);
      return { status: 'ok', version };
    });
  }

  /** Close the log files of matches untouched for `idleMs` that `keep` does not claim; the next use opens them again. */
  evictIdle(idleMs: number, keep: (id: string) => boolean): void {
    this.logs.evictIdle(idleMs, keep, (log) => void log.handle.close().catch(() => undefined));
  }

  async list(limit: number): Promise<MatchSummary[]> {
    const all = await this.allSummaries();
    return [...all.values()].sort((a, b) => b.updatedAt - a.updatedAt).slice(0, limit);
  }

  async close(): Promise<void> {
    this.closed = true;
    await this.logs.drain();
    for (const log of await this.logs.clear()) await log.handle.close().catch(() => undefined);
  }

  /** Run `task` after every earlier read or append of the same match. */
  private serial<T>(id: string, task: () => Promise<T>): Promise<T> {
    if (this.closed) return Promise.reject(new Error('store closed'));
    return this.logs.serial(id, task);
  }

  /** The match file parsed, or null when there is none (or the id is not a safe file name). */
  private async read(id: string): Promise<ReadLog | null> {
    if (!SAFE_ID.test(id)) return null;
    let text: string;
    try {
      text = await readFile(this.logPath(id), 'utf8');
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw err;
    }
    const end = text.lastIndexOf('\n') + 1;
    const lines = text.slice(0, end).split('\n').filter(Boolean);
    if (lines.length === 0) return null;
    const stored = (JSON.parse(lines[0]!) as { match: MatchRecord }).match;
    const record: MatchRecord = { ...stored, rulesVersion: storedRulesVersion(stored.rulesVersion) };
    const steps: StoredStep[] = [];
    for (let i = 1; i < lines.length; i++) {
      const row = JSON.parse(lines[i]!) as { v: number; e: string; s: StoredStep['step']; t: number };
      if (row.v !== i) throw new Error(`${this.logPath(id)}: line ${i + 1} has version ${row.v}, expected ${i}`);
      steps.push({ stepId: row.e, step: row.s, at: row.t });
    }
    return { record, steps, wholeBytes: Buffer.byteLength(text.slice(0, end)), totalBytes: Buffer.byteLength(text) };
  }

  /** Open a match file for appends (the cache's loader). */
  private async openLog(id: string): Promise<OpenLog | null> {
    const read = await this.read(id);
    return read && this.openFrom(id, read);
  }

  /** Open a match file for appends from what `read` found, cutting off a torn last line first. */
  private async openFrom(id: string, read: ReadLog): Promise<OpenLog> {
    if (read.wholeBytes < read.totalBytes) {
      // A torn trailing line was never acknowledged: drop it so the next append starts a clean line.
      const h = await open(this.logPath(id), 'r+');
      try {
        await h.truncate(read.wholeBytes);
        await h.sync();
      } finally {
        await h.close();
      }
    }
    const handle = await open(this.logPath(id), 'a');
    const stepIds = new Map(read.steps.map((e, i) => [e.stepId, i + 1] as const));
    return { handle, version: read.steps.length, stepIds, record: read.record };
  }

  private async allSummaries(): Promise<Map<string, MatchSummary>> {
    if (this.summaries) return this.summaries;
    const map = new Map<string, MatchSummary>();
    for (const name of await readdir(this.dir)) {
      if (!name.endsWith('.snapshot.json')) continue;
      try {
        const s = (JSON.parse(await readFile(join(this.dir, name), 'utf8')) as StoredSnapshot).summary;
        map.set(s.id, s);
      } catch {
        // A half-written snapshot is rewritten by the next append.
      }
    }
    this.summaries = map;
    return map;
  }

  private async writeSnapshot(snapshot: StoredSnapshot): Promise<void> {
    const path = join(this.dir, `${snapshot.summary.id}.snapshot.json`);
    await writeFile(path + '.tmp', JSON.stringify(snapshot));
    await rename(path + '.tmp', path);
    (await this.allSummaries()).set(snapshot.summary.id, snapshot.summary);
  }
}
