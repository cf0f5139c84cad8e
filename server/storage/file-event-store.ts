/**
 * Embedded (single-instance) adapter of the event store: one JSON file per event under `<dir>/events/`,
 * replaced atomically (server/storage/durable.ts: a temporary file fsynced, renamed, the directory fsynced)
 * before a save resolves, so an acknowledged change survives a crash. Documents are kept in memory once read (this
 * process is the only writer), every read and save of one event runs in its serial queue (the server's
 * keyed cache), and the match → event links are derived from the documents (the files are read once, at the first look-up, and the map kept in step with every write).
 */
import { mkdir, readdir, readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { EventListing } from '../../shared/protocol/event';
import { SAFE_ID } from '../../shared/protocol/limits';
import { KeyedCache } from '../matches/keyed-cache';
import { claimFile, writeDurably } from './durable';
import { SPONSOR_TYPES, type SponsorType } from '../../shared/protocol/event';
import { listingOf, type EventDoc, type EventStore, type LinkChange, type SaveResult, type SponsorImage } from './event-store';

/** Event store over files; one process only. */
export class FileEventStore implements EventStore {
  readonly kind = 'file' as const;
  private readonly dir: string;
  private readonly docs = new KeyedCache<EventDoc>((id) => this.read(id));
  /** Match id → the events listing it. */
  private readonly links = new Map<string, Set<string>>();
  private readonly listing = new Map<string, EventListing>();
  private scanned: Promise<void> | null = null;

  constructor(dataDir: string) {
    this.dir = join(dataDir, 'events');
  }

  /** Create the events directory if needed. */
  async init(): Promise<void> {
    await mkdir(this.dir, { recursive: true });
  }

  private path(id: string): string {
    return join(this.dir, `${id}.json`);
  }

  createEvent(doc: EventDoc): Promise<void> {
    if (!SAFE_ID.test(doc.id)) return Promise.reject(new Error(`bad event id ${doc.id}`));
    return this.docs.serial(doc.id, async () => {
      await claimFile(this.path(doc.id));
      await writeDurably(this.dir, this.path(doc.id), JSON.stringify(doc));
      this.docs.set(doc.id, doc);
      this.remember(doc, { linked: doc.matches.map((m) => m.id), unlinked: [] });
    });
  }

  loadEvent(id: string): Promise<EventDoc | null> {
    if (!SAFE_ID.test(id)) return Promise.resolve(null);
    return this.docs.serial(id, () => this.docs.get(id));
  }

  saveEvent(doc: EventDoc, expectedVersion: number, links: LinkChange): Promise<SaveResult> {
    return this.docs.serial(doc.id, async () => {
      const cur = await this.docs.get(doc.id);
      if (!cur) throw new Error(`event ${doc.id} is not in the store`);
      if (cur.version !== expectedVersion) return { status: 'stale', version: cur.version };
      await writeDurably(this.dir, this.path(doc.id), JSON.stringify(doc));
      this.docs.set(doc.id, doc);
      this.remember(doc, links);
      return { status: 'ok', version: doc.version };
    });
  }

  async eventsOfMatch(matchId: string): Promise<string[]> {
    await this.scan();
    return [...(this.links.get(matchId) ?? [])];
  }

  async listEvents(limit: number): Promise<EventListing[]> {
    await this.scan();
    return [...this.listing.values()].sort((a, b) => b.updatedAt - a.updatedAt).slice(0, limit);
  }

  /** The folder of event `eventId`'s logos: `<dir>/events/<eventId>.sponsors/`, one file per logo (its type, a newline, its bytes). */
  private sponsorDir(eventId: string): string {
    return join(this.dir, `${eventId}.sponsors`);
  }

  async putSponsorImage(eventId: string, sponsorId: string, image: SponsorImage): Promise<void> {
    if (!SAFE_ID.test(eventId) || !SAFE_ID.test(sponsorId)) throw new Error(`bad sponsor id ${eventId}/${sponsorId}`);
    const dir = this.sponsorDir(eventId);
    await mkdir(dir, { recursive: true });
    await writeDurably(dir, join(dir, sponsorId), Buffer.concat([Buffer.from(`${image.type}\n`), image.bytes]));
  }

  async loadSponsorImage(eventId: string, sponsorId: string): Promise<SponsorImage | null> {
    if (!SAFE_ID.test(eventId) || !SAFE_ID.test(sponsorId)) return null;
    let raw: Buffer;
    try {
      raw = await readFile(join(this.sponsorDir(eventId), sponsorId));
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw err;
    }
    const nl = raw.indexOf(10);
    const type = raw.subarray(0, nl).toString('utf8');
    if (nl < 0 || !(SPONSOR_TYPES as readonly string[]).includes(type)) return null;
    return { type: type as SponsorType, bytes: raw.subarray(nl + 1) };
  }

  async deleteSponsorImage(eventId: string, sponsorId: string): Promise<void> {
    if (!SAFE_ID.test(eventId) || !SAFE_ID.test(sponsorId)) return;
    await rm(join(this.sponsorDir(eventId), sponsorId), { force: true });
  }

  async close(): Promise<void> {
    await this.docs.drain();
  }

  /**
   * Read every event file once, for the match links and the listing. A document written meanwhile is
   * already in memory (the cache's value wins over the file) and `remember` has noted it.
   */
  private scan(): Promise<void> {
    this.scanned ??= (async () => {
      for (const name of await readdir(this.dir)) {
        if (!name.endsWith('.json')) continue;
        const doc = await this.docs.get(name.slice(0, -'.json'.length));
        if (!doc) continue;
        for (const m of doc.matches) this.link(m.id, doc.id);
        const row = this.listing.get(doc.id);
        if (!row || row.updatedAt < doc.updatedAt) this.listing.set(doc.id, listingOf(doc));
      }
    })();
    this.scanned.catch(() => (this.scanned = null));
    return this.scanned;
  }

  /** Keep the links and the listing in step with a document just written. */
  private remember(doc: EventDoc, links: LinkChange): void {
    for (const m of links.unlinked) {
      const events = this.links.get(m);
      events?.delete(doc.id);
      if (events?.size === 0) this.links.delete(m);
    }
    for (const m of links.linked) this.link(m, doc.id);
    this.listing.set(doc.id, listingOf(doc));
  }

  private link(matchId: string, eventId: string): void {
    const events = this.links.get(matchId);
    if (events) events.add(eventId);
    else this.links.set(matchId, new Set([eventId]));
  }

  /**
   * The event file parsed, or null when there is none. An empty file is a creation that crashed before it
   * was written (never acknowledged): no event.
   */
  private async read(id: string): Promise<EventDoc | null> {
    let text: string;
    try {
      text = await readFile(this.path(id), 'utf8');
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw err;
    }
    return text === '' ? null : (JSON.parse(text) as EventDoc);
  }
}
