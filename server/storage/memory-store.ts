/**
 * An in-memory `MatchStore` for benchmarks (no I/O, so what is measured is the server's own work and memory).
 * Same contract as the real stores: compare-and-append, stepId dedupe, checkpoints.
 */
import type { MatchSummary } from '../../shared/protocol/wire';
import { openedRange, type AppendResult, type Checkpoint, type LoadedLog, type MatchRecord, type MatchStore, type OpenedLog, type StoredStep, type StoredSnapshot } from './types';

interface Stored {
  record: MatchRecord;
  steps: StoredStep[];
  ids: Map<string, number>;
  checkpoint: string | null;
  summary: MatchSummary;
}

export class MemoryStore implements MatchStore {
  readonly kind = 'file' as const;
  private readonly matches = new Map<string, Stored>();

  async create(record: MatchRecord, snapshot: StoredSnapshot): Promise<void> {
    if (this.matches.has(record.id)) throw new Error(`match ${record.id} already exists`);
    this.matches.set(record.id, { record, steps: [], ids: new Map(), checkpoint: null, summary: snapshot.summary });
  }

  async load(id: string): Promise<LoadedLog | null> {
    const m = this.matches.get(id);
    return m ? { record: m.record, steps: m.steps.slice() } : null;
  }

  async open(id: string, tail: number): Promise<OpenedLog | null> {
    const m = this.matches.get(id);
    if (!m) return null;
    const { checkpoint, from } = openedRange(m.checkpoint ? (JSON.parse(m.checkpoint) as Checkpoint) : null, m.steps.length, tail);
    return { record: m.record, checkpoint, steps: m.steps.slice(from), from };
  }

  async stepsSince(id: string, version: number, upTo?: number): Promise<StoredStep[]> {
    return this.matches.get(id)?.steps.slice(version, upTo) ?? [];
  }

  async versionOfStep(id: string, stepId: string): Promise<number | undefined> {
    return this.matches.get(id)?.ids.get(stepId);
  }

  async saveCheckpoint(id: string, checkpoint: Checkpoint): Promise<void> {
    const m = this.matches.get(id);
    if (m) m.checkpoint = JSON.stringify(checkpoint);
  }

  async append(id: string, expectedVersion: number, entry: StoredStep, snapshot: StoredSnapshot): Promise<AppendResult> {
    const m = this.matches.get(id);
    if (!m) throw new Error(`match ${id} is not in the store`);
    const dup = m.ids.get(entry.stepId);
    if (dup !== undefined) return { status: 'duplicate', version: dup };
    if (m.steps.length !== expectedVersion) return { status: 'stale', version: m.steps.length };
    m.steps.push(entry);
    m.ids.set(entry.stepId, m.steps.length);
    m.summary = snapshot.summary;
    return { status: 'ok', version: m.steps.length };
  }

  async list(limit: number): Promise<MatchSummary[]> {
    return [...this.matches.values()].map((m) => m.summary).slice(0, limit);
  }

  async close(): Promise<void> {}
}
