/**
 * The storage port of draws (issue 27): per event, the draw's definition, its entries in order (shared/draw:
 * starts, results, race changes) and the service's settings (autopilot on or off, pinned matches, featured
 * matches and the TV table), under a version that grows by one per change. Each change is one compare-and-set
 * — one transaction (SQLite), one Lua script (Redis) — so the entries and settings change together or not at
 * all. Three adapters, each small and self-contained: memory-draw-store.ts, sqlite-draw-store.ts,
 * redis-draw-store.ts; tests/server/draw-store.test.ts runs one contract against all three.
 */
import type { DrawDefinition, DrawEntry } from '../../shared/draw/types';
import type { DrawSettings } from '../../shared/protocol/draw';

export type { DrawSettings };

/** A stored draw. */
export interface DrawDoc {
  eventId: string;
  definition: DrawDefinition;
  entries: DrawEntry[];
  settings: DrawSettings;
  /** 0 when created; one more per change. */
  version: number;
  /** ms since the epoch. */
  createdAt: number;
}

/** A change: entries appended (in order) and/or the settings replaced. */
export interface DrawChange {
  entries?: readonly DrawEntry[];
  settings?: DrawSettings;
}

/** `ok` (now at the returned version) or `stale` (the stored version; -1 when there is no draw). */
export type DrawSaveResult = { status: 'ok'; version: number } | { status: 'stale'; version: number };

/** Draw storage. Methods reject only on I/O failure, never for a refusal. */
export interface DrawStore {
  readonly kind: 'memory' | 'sqlite' | 'redis';
  /**
   * Store a new draw for `doc.eventId` at version 0 with no entries. With `replacing` (the stored draw's
   * version), replace the event's draw if it is exactly at that version (a cancelled draw); without it, only
   * when the event has none. `stale` (with the stored version) otherwise.
   */
  create(doc: Omit<DrawDoc, 'version' | 'entries'>, replacing?: number): Promise<DrawSaveResult>;
  /** The event's draw, or null. */
  load(eventId: string): Promise<DrawDoc | null>;
  /** Apply `change` if the draw is exactly at `expected` (durable before `ok`); unchanged when `stale`. */
  change(eventId: string, expected: number, change: DrawChange): Promise<DrawSaveResult>;
  close(): Promise<void>;
}

/** Settings of a new draw: autopilot off, nothing pinned or featured. */
export function initialSettings(tvTable: string | null = null): DrawSettings {
  return { autopilot: false, pins: {}, featured: [], tvTable };
}
