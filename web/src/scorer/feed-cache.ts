/**
 * The last confirmed snapshot of a match, kept in the browser next to its outbox (`cuecast.feed.<matchId>`
 * beside `cuecast.outbox.<matchId>`), so a console reloaded while the server is unreachable can show the
 * table it last knew, play the queued steps forward on it and keep queueing steps against its version —
 * as if the page had never reloaded. Only what the console needs is kept: set-up, version, state and the
 * few recent steps' outcomes (not the score sheet or statistics, which grow with the match).
 *
 * Plain TypeScript over an injected `Storage`-like object, so it unit-tests under vitest.
 */
import type { MatchSetup } from '../../../shared/protocol/setup';
import type { MatchState, Outcome } from '../../../shared/protocol/state';
import type { OutboxStorage } from '../lib/outbox';

/** A confirmed snapshot as cached: the server's state at `version` (log length) and when it was saved (ms since epoch). */
export interface CachedFeed {
  matchId: string;
  version: number;
  setup: MatchSetup;
  state: MatchState;
  /** The outcomes of the server's last few steps (`MatchStats.recent`), newest last. */
  recent: Outcome[];
  savedAt: number;
}

/** The part of a live snapshot the cache keeps (a `MatchFeed` fits). */
export interface FeedLike {
  matchId: string;
  version: number;
  setup: MatchSetup;
  state: MatchState;
  stats: { recent: readonly Outcome[] };
}

/** localStorage key of a match's cached snapshot (the outbox is `cuecast.outbox.<matchId>`). */
export const feedCacheKey = (matchId: string) => `cuecast.feed.${matchId}`;

/** Format tag: a cache written by an incompatible build is ignored rather than misread (2: outcomes as facts). */
const FORMAT = 2;

/**
 * Save `feed` (a snapshot the server just sent: it is the authority) as the match's last confirmed one.
 * Storage errors (quota, private mode) are swallowed: the cache is a convenience, the outbox is what must
 * not be lost.
 */
export function saveFeed(storage: OutboxStorage | null, feed: FeedLike, now = Date.now()): void {
  if (!storage) return;
  try {
    const entry = {
      format: FORMAT,
      matchId: feed.matchId,
      version: feed.version,
      setup: feed.setup,
      state: feed.state,
      recent: [...feed.stats.recent],
      savedAt: now,
    };
    storage.setItem(feedCacheKey(feed.matchId), JSON.stringify(entry));
  } catch {
    /* storage full or blocked: nothing cached */
  }
}

/** The cached snapshot of `matchId`, or null when none is saved or it does not look like one. */
export function loadFeed(storage: OutboxStorage | null, matchId: string): CachedFeed | null {
  if (!storage) return null;
  try {
    const raw = storage.getItem(feedCacheKey(matchId));
    if (!raw) return null;
    const x = JSON.parse(raw) as Record<string, unknown>;
    if (!x || typeof x !== 'object' || x.format !== FORMAT || x.matchId !== matchId) return null;
    if (typeof x.version !== 'number' || !Number.isInteger(x.version) || x.version < 0) return null;
    if (typeof x.savedAt !== 'number' || !Array.isArray(x.recent) || !x.recent.every((r) => r !== null && typeof r === 'object' && 'next' in r)) return null;
    const setup = x.setup as MatchSetup | null;
    const state = x.state as MatchState | null;
    if (!setup || typeof setup !== 'object' || !state || typeof state !== 'object') return null;
    if (setup.discipline !== state.discipline || !Array.isArray(state.names) || !Array.isArray(state.score)) return null;
    if (typeof state.steps !== 'number' || !Array.isArray(setup.players)) return null;
    return { matchId, version: x.version, setup, state, recent: x.recent as Outcome[], savedAt: x.savedAt };
  } catch {
    return null;
  }
}

/** Forget the cached snapshot of `matchId` (e.g. the server says the match does not exist). */
export function clearFeed(storage: OutboxStorage | null, matchId: string): void {
  try {
    storage?.removeItem(feedCacheKey(matchId));
  } catch {
    /* blocked storage: nothing to clear */
  }
}
