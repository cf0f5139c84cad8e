/**
 * Embedded (single-instance) adapter of the match store: one append-only JSONL file per match under
 * `dir`. Line 1 holds the match record; each later line one accepted step `{v, e, s, t}`. Every append
 * is fsynced before it resolves, so an acknowledged step survives a crash or a restart. A torn last line
 * (a crash mid-write, never acknowledged) is cut off when the file is next opened. The snapshot of each
 * match (listing row and state) lives in `<id>.snapshot.json`, rewritten atomically after each append; it
 * is not the source of truth (a crash may leave it one step behind until the next append).
 */
import { mkdir, open, readdir, readFile, rename, writeFile, type FileHandle } from 'node:fs/promises';
import { join } from 'node:path';
import type { AppendResult, LoadedLog, MatchRecord, MatchStore, StoredEvent, StoredSnapshot } from './types';
import type { MatchSummary } from '../../shared/protocol/wire';

const SAFE_ID = /^[A-Za-z0-9_-]{1,64}$/;

interface OpenLog {
  handle: FileHandle;
  version: number;
  eventIds: Map<string, number>;
  events: StoredEvent[];
  record: MatchRecord;
}

/** Match store over append-only files; one process only. */
export class FileStore implements MatchStore {
  readonly kind = 'file' as const;
  private readonly logs = new Map<string, Promise<OpenLog | null>>();
  private readonly chains = new Map<string, Promise<unknown>>();
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
    await this.syncDir();
    this.logs.set(record.id, Promise.resolve({ handle, version: 0, eventIds: new Map(), events: [], record }));
    await this.writeSnapshot(snapshot);
  }

  load(id: string): Promise<LoadedLog | null> {
    return this.withLog(id, (log) => (log ? { record: log.record, events: log.events.slice() } : null));
  }

  eventsSince(id: string, version: number): Promise<StoredEvent[]> {
    return this.withLog(id, (log) => (log ? log.events.slice(version) : []));
  }

  append(id: string, expectedVersion: number, event: StoredEvent, snapshot: StoredSnapshot): Promise<AppendResult> {
    return this.serial(id, async () => {
      const log = await this.open(id);
      if (!log) throw new Error(`match ${id} is not in the store`);
      const dup = log.eventIds.get(event.eventId);
      if (dup !== undefined) return { status: 'duplicate', version: dup };
      if (log.version !== expectedVersion) return { status: 'stale', version: log.version };
      const version = log.version + 1;
      await log.handle.write(JSON.stringify({ v: version, e: event.eventId, s: event.step, t: event.at }) + '\n');
      await log.handle.datasync();
      log.version = version;
      log.eventIds.set(event.eventId, version);
      log.events.push(event);
      await this.writeSnapshot(snapshot);
      return { status: 'ok', version };
    });
  }

  async list(limit: number): Promise<MatchSummary[]> {
    const all = await this.allSummaries();
    return [...all.values()].sort((a, b) => b.updatedAt - a.updatedAt).slice(0, limit);
  }

  async close(): Promise<void> {
    this.closed = true;
    await Promise.allSettled([...this.chains.values()]);
    for (const p of this.logs.values()) {
      const log = await p.catch(() => null);
      await log?.handle.close().catch(() => undefined);
    }
    this.logs.clear();
  }

  private withLog<T>(id: string, f: (log: OpenLog | null) => T): Promise<T> {
    return this.serial(id, async () => f(await this.open(id)));
  }

  /** Run `task` after every earlier task on the same match. */
  private serial<T>(id: string, task: () => Promise<T>): Promise<T> {
    if (this.closed) return Promise.reject(new Error('store closed'));
    const prev = this.chains.get(id) ?? Promise.resolve();
    const next = prev.then(task, task);
    const tail = next.catch(() => undefined);
    this.chains.set(id, tail);
    void tail.then(() => {
      if (this.chains.get(id) === tail) this.chains.delete(id);
    });
    return next;
  }

  private open(id: string): Promise<OpenLog | null> {
    if (!SAFE_ID.test(id)) return Promise.resolve(null);
    let p = this.logs.get(id);
    if (!p) {
      p = this.readLog(id);
      this.logs.set(id, p);
      p.then((log) => { if (!log) this.logs.delete(id); }, () => this.logs.delete(id));
    }
    return p;
  }

  private async readLog(id: string): Promise<OpenLog | null> {
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
    const record = (JSON.parse(lines[0]!) as { match: MatchRecord }).match;
    const events: StoredEvent[] = [];
    const eventIds = new Map<string, number>();
    for (let i = 1; i < lines.length; i++) {
      const row = JSON.parse(lines[i]!) as { v: number; e: string; s: StoredEvent['step']; t: number };
      if (row.v !== i) throw new Error(`${this.logPath(id)}: line ${i + 1} has version ${row.v}, expected ${i}`);
      events.push({ eventId: row.e, step: row.s, at: row.t });
      eventIds.set(row.e, row.v);
    }
    const bytes = Buffer.byteLength(text.slice(0, end));
    if (bytes < Buffer.byteLength(text)) {
      // A torn trailing line was never acknowledged: drop it so the next append starts a clean line.
      const h = await open(this.logPath(id), 'r+');
      try {
        await h.truncate(bytes);
        await h.sync();
      } finally {
        await h.close();
      }
    }
    const appendHandle = await open(this.logPath(id), 'a');
    return { handle: appendHandle, version: events.length, eventIds, events, record };
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

  private async syncDir(): Promise<void> {
    const h = await open(this.dir, 'r');
    try {
      await h.sync();
    } finally {
      await h.close();
    }
  }
}
