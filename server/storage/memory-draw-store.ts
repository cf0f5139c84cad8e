/** The draw store in this process's memory (tests, benchmarks, `memoryBackends`). Copies in and out, as a real store would. */
import type { DrawChange, DrawDoc, DrawSaveResult, DrawStore } from './draw-store';

export class MemoryDrawStore implements DrawStore {
  readonly kind = 'memory' as const;
  private readonly docs = new Map<string, DrawDoc>();

  async create(doc: Omit<DrawDoc, 'version' | 'entries'>, replacing?: number): Promise<DrawSaveResult> {
    const cur = this.docs.get(doc.eventId);
    if (cur ? cur.version !== replacing : replacing !== undefined) return { status: 'stale', version: cur?.version ?? -1 };
    this.docs.set(doc.eventId, structuredClone({ ...doc, entries: [], version: 0 }));
    return { status: 'ok', version: 0 };
  }

  async load(eventId: string): Promise<DrawDoc | null> {
    const d = this.docs.get(eventId);
    return d ? structuredClone(d) : null;
  }

  async change(eventId: string, expected: number, change: DrawChange): Promise<DrawSaveResult> {
    const d = this.docs.get(eventId);
    if (!d || d.version !== expected) return { status: 'stale', version: d?.version ?? -1 };
    if (change.entries) d.entries.push(...structuredClone(change.entries));
    if (change.settings) d.settings = structuredClone(change.settings);
    d.version++;
    return { status: 'ok', version: d.version };
  }

  async close(): Promise<void> {}
}
