/**
 * The in-memory stores: a `MatchStore` and an `EventStore` that keep everything in this process (nothing
 * survives a restart). They keep the same contracts as the Redis and file stores and pass the same store-port
 * suite (tests/server/store-port.test.ts): compare-and-append, stepId dedupe, checkpoints, `open`'s range,
 * listings newest first, an event's compare-and-set and its match links. What goes in is copied, and so is what
 * comes out, as a store that serialises would, so no caller can change a stored step or document afterwards.
 * Used by the service-level tests and the benchmarks (no I/O: what is measured is the server's own work).
 */
import type { EventListing } from '../../shared/protocol/event';
import type { MatchSummary } from '../../shared/protocol/wire';
import { listingOf, type EventDoc, type EventStore, type LinkChange, type SaveResult, type SponsorImage } from './event-store';
import { carriedCheckpoint, openedRange, type AppendExtras, type AppendResult, type Checkpoint, type LoadedLog, type MatchRecord, type MatchStore, type OpenedLog, type RemoveResult, type StoredStep, type StoredSnapshot } from './types';

interface Stored {
  record: MatchRecord;
  steps: StoredStep[];
  /** stepId → version. */
  ids: Map<string, number>;
  checkpoint: Checkpoint | null;
  /** The listing row of the latest snapshot (the state beside it is never read back through the port). */
  summary: MatchSummary;
}

const copy = structuredClone;

/** Matches in memory (one process; `kind` 'memory', never shared between instances). */
export class MemoryStore implements MatchStore {
  readonly kind = 'memory' as const;
  private readonly matches = new Map<string, Stored>();

  async create(record: MatchRecord, snapshot: StoredSnapshot): Promise<void> {
    if (this.matches.has(record.id)) throw new Error(`match ${record.id} already exists`);
    this.matches.set(record.id, { record: copy(record), steps: [], ids: new Map(), checkpoint: null, summary: copy(snapshot.summary) });
  }

  async load(id: string): Promise<LoadedLog | null> {
    const m = this.matches.get(id);
    return m ? { record: copy(m.record), steps: copy(m.steps) } : null;
  }

  async open(id: string, tail: number): Promise<OpenedLog | null> {
    const m = this.matches.get(id);
    if (!m) return null;
    const { checkpoint, from } = openedRange(m.checkpoint, m.steps.length, tail);
    return { record: copy(m.record), checkpoint: checkpoint && copy(checkpoint), steps: copy(m.steps.slice(from)), from };
  }

  async stepsSince(id: string, version: number, upTo?: number): Promise<StoredStep[]> {
    return copy(this.matches.get(id)?.steps.slice(version, upTo) ?? []);
  }

  async versionOfStep(id: string, stepId: string): Promise<number | undefined> {
    return this.matches.get(id)?.ids.get(stepId);
  }

  async saveCheckpoint(id: string, checkpoint: Checkpoint): Promise<void> {
    const m = this.matches.get(id);
    if (m) m.checkpoint = copy(checkpoint);
  }

  /** Compare-and-append (see `MatchStore.append`): the step, snapshot and carried checkpoint kept in one synchronous turn. */
  async append(id: string, expectedVersion: number, entry: StoredStep, snapshot: StoredSnapshot, extras?: AppendExtras): Promise<AppendResult> {
    const m = this.matches.get(id);
    if (!m) throw new Error(`match ${id} is not in the store`);
    const checkpoint = carriedCheckpoint(expectedVersion, extras);
    const dup = m.ids.get(entry.stepId);
    if (dup !== undefined) return { status: 'duplicate', version: dup };
    if (m.steps.length !== expectedVersion) return { status: 'stale', version: m.steps.length };
    // Copied before anything changes, so nothing is kept unless all of it is.
    const kept = { step: copy(entry), summary: copy(snapshot.summary), checkpoint: checkpoint ? copy(checkpoint) : m.checkpoint };
    m.steps.push(kept.step);
    m.ids.set(entry.stepId, m.steps.length);
    m.summary = kept.summary;
    m.checkpoint = kept.checkpoint;
    return { status: 'ok', version: m.steps.length };
  }

  async removeIfEmpty(id: string): Promise<RemoveResult> {
    const m = this.matches.get(id);
    if (!m) return 'missing';
    if (m.steps.length > 0) return 'has-steps';
    this.matches.delete(id);
    return 'removed';
  }

  async list(limit: number): Promise<MatchSummary[]> {
    const rows = [...this.matches.values()].map((m) => m.summary);
    return copy(rows.sort((a, b) => b.updatedAt - a.updatedAt).slice(0, limit));
  }

  async close(): Promise<void> {}
}

/** Events in memory (one process; `kind` 'memory'). */
export class MemoryEventStore implements EventStore {
  readonly kind = 'memory' as const;
  private readonly docs = new Map<string, EventDoc>();
  /** Match id → the events linked to it. */
  private readonly links = new Map<string, Set<string>>();
  /** `<eventId>/<sponsorId>` → a sponsor's logo (copied in and out). */
  private readonly sponsors = new Map<string, SponsorImage>();

  async createEvent(doc: EventDoc): Promise<void> {
    if (this.docs.has(doc.id)) throw new Error(`event ${doc.id} already exists`);
    this.docs.set(doc.id, copy(doc));
    this.relink(doc.id, { linked: doc.matches.map((m) => m.id), unlinked: [] });
  }

  async loadEvent(id: string): Promise<EventDoc | null> {
    const doc = this.docs.get(id);
    return doc ? copy(doc) : null;
  }

  async saveEvent(doc: EventDoc, expectedVersion: number, links: LinkChange): Promise<SaveResult> {
    const cur = this.docs.get(doc.id);
    if (!cur) throw new Error(`event ${doc.id} is not in the store`);
    if (cur.version !== expectedVersion) return { status: 'stale', version: cur.version };
    this.docs.set(doc.id, copy(doc));
    this.relink(doc.id, links);
    return { status: 'ok', version: doc.version };
  }

  async eventsOfMatch(matchId: string): Promise<string[]> {
    return [...(this.links.get(matchId) ?? [])];
  }

  async listEvents(limit: number): Promise<EventListing[]> {
    return [...this.docs.values()].map(listingOf).sort((a, b) => b.updatedAt - a.updatedAt).slice(0, limit);
  }

  async putSponsorImage(eventId: string, sponsorId: string, image: SponsorImage): Promise<void> {
    this.sponsors.set(`${eventId}/${sponsorId}`, { type: image.type, bytes: Buffer.from(image.bytes) });
  }

  async loadSponsorImage(eventId: string, sponsorId: string): Promise<SponsorImage | null> {
    const image = this.sponsors.get(`${eventId}/${sponsorId}`);
    return image ? { type: image.type, bytes: Buffer.from(image.bytes) } : null;
  }

  async deleteSponsorImage(eventId: string, sponsorId: string): Promise<void> {
    this.sponsors.delete(`${eventId}/${sponsorId}`);
  }

  async close(): Promise<void> {}

  private relink(eventId: string, { linked, unlinked }: LinkChange): void {
    for (const m of unlinked) {
      const events = this.links.get(m);
      events?.delete(eventId);
      if (events?.size === 0) this.links.delete(m);
    }
    for (const m of linked) {
      const events = this.links.get(m);
      if (events) events.add(eventId);
      else this.links.set(m, new Set([eventId]));
    }
  }
}
