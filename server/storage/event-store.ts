/**
 * The storage port of events, beside the match store (server/storage/types.ts) and kept in the same place:
 * one document per event, replaced whole by compare-and-set on its version, and the links of each match
 * put on one of its tables back to the event (so a recorded step finds the events it belongs to). The document
 * is the truth; a link says where to look and may outlive the listing it was made for (a reader checks the
 * event's `matches`). Three adapters: `RedisEventStore` (shared by many instances, one Redis or a Cluster),
 * `FileEventStore` (the embedded mode) and `MemoryEventStore` (this process only).
 */
import type { EventInfo, EventListing, SponsorType } from '../../shared/protocol/event';

/** A sponsor's logo as stored: its type (decided by its content) and its bytes. */
export interface SponsorImage {
  type: SponsorType;
  bytes: Buffer;
}

/** An event as stored: the public event plus the organiser token's hash and the roster's id counter. */
export interface EventDoc extends EventInfo {
  /** sha256 hex of the organiser token (the token itself is never stored). */
  tokenHash: string;
  /** Number for the next roster player's id (`p<n>`). */
  nextPlayer: number;
}

/** Result of a compare-and-set: `ok` (now at expectedVersion + 1) or `stale` (the stored version). */
export type SaveResult = { status: 'ok'; version: number } | { status: 'stale'; version: number };

/** Matches a save links to its event (newly listed) and unlinks (no longer listed). */
export interface LinkChange {
  linked: readonly string[];
  unlinked: readonly string[];
}

/** The link change from the event `before` to `after` (match ids in `matches`). */
export function linkChange(before: Pick<EventInfo, 'matches'>, after: Pick<EventInfo, 'matches'>): LinkChange {
  const was = new Set(before.matches.map((m) => m.id));
  const now = new Set(after.matches.map((m) => m.id));
  return { linked: [...now].filter((id) => !was.has(id)), unlinked: [...was].filter((id) => !now.has(id)) };
}

/** Event storage. Methods reject only on I/O failure (never for a business refusal). */
export interface EventStore {
  readonly kind: 'redis' | 'file' | 'sqlite' | 'memory';
  /** Store a new event (version 0) and link its matches. Rejects if the id exists (a link or listing row may stay). */
  createEvent(doc: EventDoc): Promise<void>;
  /** The event, or null when unknown. */
  loadEvent(id: string): Promise<EventDoc | null>;
  /**
   * Replace the event with `doc` (whose `version` is expectedVersion + 1) if the stored one is exactly at
   * `expectedVersion`; link the matches it newly lists to the event and unlink those it no longer lists.
   * Durable before it resolves `ok`; the document is unchanged when `stale`. Whatever happens (a crash, a
   * `stale` answer), every match a stored event lists stays linked to it; an extra link may stay.
   */
  saveEvent(doc: EventDoc, expectedVersion: number, links: LinkChange): Promise<SaveResult>;
  /** The events match `matchId` may be on: every event that lists it, and perhaps others (check their `matches`). */
  eventsOfMatch(matchId: string): Promise<string[]>;
  /** The most recently changed events, newest first. */
  listEvents(limit: number): Promise<EventListing[]>;
  /**
   * Store the logo `sponsorId` of event `eventId` (replacing one of that id). Durable before it resolves. The
   * event's document lists it (`sponsors`) only after this resolved, so a listed logo is always stored.
   */
  putSponsorImage(eventId: string, sponsorId: string, image: SponsorImage): Promise<void>;
  /** The logo, or null when none is stored at that id. */
  loadSponsorImage(eventId: string, sponsorId: string): Promise<SponsorImage | null>;
  /** Remove the logo (nothing when there is none). */
  deleteSponsorImage(eventId: string, sponsorId: string): Promise<void>;
  close(): Promise<void>;
}

/** Listing row of an event. */
export function listingOf(doc: EventInfo): EventListing {
  return { id: doc.id, name: doc.name, date: doc.date, tables: doc.tables.length, updatedAt: doc.updatedAt };
}
