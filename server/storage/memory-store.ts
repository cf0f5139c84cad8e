/**
 * The memory backend: every storage port (server/storage/ports.ts) kept in this process (nothing survives a
 * restart); `memoryStorage()` opens them together. They keep the same contracts as the Redis and SQLite stores
 * and pass the same contract suite (tests/server/store-port.test.ts): compare-and-append, stepId dedupe, checkpoints, `open`'s range,
 * listings newest first, an event's compare-and-set and its match links, the shot clocks' compare-and-set,
 * the sponsors' logos. What goes in is copied, and so is what
 * comes out, as a store that serialises would, so no caller can change a stored step or document afterwards.
 * Used by the service-level tests and the benchmarks (no I/O: what is measured is the server's own work).
 */
import { MemoryDrawStore } from './memory-draw-store';
import { MemoryWebhookStore } from './memory-webhook-store';
import type { EventListing } from '../../shared/protocol/event';
import type { MatchSummary } from '../../shared/protocol/wire';
import {
  carriedCheckpoint,
  listingOf,
  openedRange,
  type AppendExtras,
  type AppendResult,
  type Checkpoint,
  type TournamentDoc,
  type TournamentStore,
  type LinkChange,
  type LoadedLog,
  type MatchRecord,
  type MatchStore,
  type OpenedLog,
  type RemoveResult,
  type SaveResult,
  type ShotClockDoc,
  type ShotClockStore,
  type SponsorImage,
  type SponsorStore,
  type StoragePorts,
  type StoredStep,
  type StoredSnapshot,
} from './ports';

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

/** Tournaments (the API's events) in memory (one process; `kind` 'memory'). */
export class MemoryTournamentStore implements TournamentStore {
  readonly kind = 'memory' as const;
  private readonly docs = new Map<string, TournamentDoc>();
  /** Match id → the events linked to it. */
  private readonly links = new Map<string, Set<string>>();

  async createTournament(doc: TournamentDoc): Promise<void> {
    if (this.docs.has(doc.id)) throw new Error(`event ${doc.id} already exists`);
    this.docs.set(doc.id, copy(doc));
    this.relink(doc.id, { linked: doc.matches.map((m) => m.id), unlinked: [] });
  }

  async loadTournament(id: string): Promise<TournamentDoc | null> {
    const doc = this.docs.get(id);
    return doc ? copy(doc) : null;
  }

  async saveTournament(doc: TournamentDoc, expectedVersion: number, links: LinkChange): Promise<SaveResult> {
    const cur = this.docs.get(doc.id);
    if (!cur) throw new Error(`event ${doc.id} is not in the store`);
    if (cur.version !== expectedVersion) return { status: 'stale', version: cur.version };
    this.docs.set(doc.id, copy(doc));
    this.relink(doc.id, links);
    return { status: 'ok', version: doc.version };
  }

  async tournamentsOfMatch(matchId: string): Promise<string[]> {
    return [...(this.links.get(matchId) ?? [])];
  }

  async listTournaments(limit: number): Promise<EventListing[]> {
    return [...this.docs.values()]
      .map(listingOf)
      .sort((a, b) => b.updatedAt - a.updatedAt)
      .slice(0, limit);
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

/** Sponsors' logos in memory (copied in and out). */
export class MemorySponsorStore implements SponsorStore {
  /** `<eventId>/<sponsorId>` → a sponsor's logo. */
  private readonly images = new Map<string, SponsorImage>();

  async put(eventId: string, sponsorId: string, image: SponsorImage): Promise<void> {
    this.images.set(`${eventId}/${sponsorId}`, { type: image.type, bytes: Buffer.from(image.bytes) });
  }

  async load(eventId: string, sponsorId: string): Promise<SponsorImage | null> {
    const image = this.images.get(`${eventId}/${sponsorId}`);
    return image ? { type: image.type, bytes: Buffer.from(image.bytes) } : null;
  }

  async delete(eventId: string, sponsorId: string): Promise<void> {
    this.images.delete(`${eventId}/${sponsorId}`);
  }
}

/** Shot clocks in memory. */
export class MemoryShotClockStore implements ShotClockStore {
  private readonly docs = new Map<string, string>();

  async read(matchId: string): Promise<ShotClockDoc | null> {
    const text = this.docs.get(matchId);
    return text === undefined ? null : (JSON.parse(text) as ShotClockDoc);
  }

  async write(matchId: string, doc: ShotClockDoc, expectedRevision: number): Promise<boolean> {
    // Checked and set in one synchronous run: no other write can come between.
    const current = this.docs.get(matchId);
    const revision = current === undefined ? 0 : (JSON.parse(current) as ShotClockDoc).revision;
    if (revision !== expectedRevision) return false;
    this.docs.set(matchId, JSON.stringify(doc));
    return true;
  }
}

/** Every port in memory (one process; nothing kept after it stops). */
export function memoryStorage(): StoragePorts {
  return {
    kind: 'memory',
    matches: new MemoryStore(),
    tournaments: new MemoryTournamentStore(),
    shotClocks: new MemoryShotClockStore(),
    sponsors: new MemorySponsorStore(),
    draws: new MemoryDrawStore(),
    webhooks: new MemoryWebhookStore(),
    close: async () => {},
  };
}
