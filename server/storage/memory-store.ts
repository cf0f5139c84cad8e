/**
 * An in-memory `MatchStore` for benchmarks (no I/O, so what is measured is the server's own work and memory).
 * Same contract as the real stores: compare-and-append, eventId dedupe, checkpoints.
 */
import type { MatchSummary } from '../../shared/protocol/wire';
import { openedRange, type AppendResult, type Checkpoint, type LoadedLog, type MatchRecord, type MatchStore, type OpenedLog, type StoredEvent, type StoredSnapshot } from './types';

interface Stored {
  record: MatchRecord;
  events: StoredEvent[];
  ids: Map<string, number>;
  checkpoint: string | null;
  summary: MatchSummary;
}

export class MemoryStore implements MatchStore {
  readonly kind = 'file' as const;
  private readonly matches = new Map<string, Stored>();

  async create(record: MatchRecord, snapshot: StoredSnapshot): Promise<void> {
    if (this.matches.has(record.id)) throw new Error(`match ${record.id} already exists`);
    this.matches.set(record.id, { record, events: [], ids: new Map(), checkpoint: null, summary: snapshot.summary });
  }

  async load(id: string): Promise<LoadedLog | null> {
    const m = this.matches.get(id);
    return m ? { record: m.record, events: m.events.slice() } : null;
  }

  async open(id: string, tail: number): Promise<OpenedLog | null> {
    const m = this.matches.get(id);
    if (!m) return null;
    const { checkpoint, from } = openedRange(m.checkpoint ? (JSON.parse(m.checkpoint) as Checkpoint) : null, m.events.length, tail);
    return { record: m.record, checkpoint, events: m.events.slice(from), from };
  }

  async eventsSince(id: string, version: number, upTo?: number): Promise<StoredEvent[]> {
    return this.matches.get(id)?.events.slice(version, upTo) ?? [];
  }

  async versionOfEvent(id: string, eventId: string): Promise<number | undefined> {
    return this.matches.get(id)?.ids.get(eventId);
  }

  async saveCheckpoint(id: string, checkpoint: Checkpoint): Promise<void> {
    const m = this.matches.get(id);
    if (m) m.checkpoint = JSON.stringify(checkpoint);
  }

  async append(id: string, expectedVersion: number, event: StoredEvent, snapshot: StoredSnapshot): Promise<AppendResult> {
    const m = this.matches.get(id);
    if (!m) throw new Error(`match ${id} is not in the store`);
    const dup = m.ids.get(event.eventId);
    if (dup !== undefined) return { status: 'duplicate', version: dup };
    if (m.events.length !== expectedVersion) return { status: 'stale', version: m.events.length };
    m.events.push(event);
    m.ids.set(event.eventId, m.events.length);
    m.summary = snapshot.summary;
    return { status: 'ok', version: m.events.length };
  }

  async list(limit: number): Promise<MatchSummary[]> {
    return [...this.matches.values()].map((m) => m.summary).slice(0, limit);
  }

  async close(): Promise<void> {}
}
