/**
 * Match subscriptions over the live-client core (./live-subscriptions.ts), at two details:
 * - `watchScorebug`: the state only (detail `scorebug`: the server never sends the statistics); every push is a
 *   whole state, so one that skips versions is simply shown;
 * - `watchFull`: the state and the statistics (detail `full`). The subscribe ack carries the whole statistics
 *   (a long score sheet in pages: the newest rows in the ack, the older ones after it, ./live-sheet-pages.ts; the
 *   feed is handed on once the sheet is whole);
 *   each push carries only what changed since the version before (`StatsDelta`), applied to the statistics
 *   held only when the push is exactly the next version; anything else asks again (a resync).
 * A match watched both ways is subscribed `full` (one subscription per match on a connection: the server moves
 * it to that detail's room). The statistics deltas are applied by the `followStats(…)` a client passes in, so a
 * page that only shows the scorebug (the OBS overlay) leaves that code (shared/protocol/stats-delta.ts) out.
 * Every subscribe names this build's PROTOCOL_VERSION.
 */
import type { ApiError } from '../../../shared/protocol/errors';
import type { MatchSetup } from '../../../shared/protocol/setup';
import type { MatchState } from '../../../shared/protocol/state';
import {
  PROTOCOL_VERSION,
  type Detail,
  type MatchStats,
  type ScorebugFigures,
  type ScorebugSnapshot,
  type StatsDelta,
  type SubscribeRequest,
} from '../../../shared/protocol/wire';
import type { LivePort } from './live-port';
import { SUBSCRIBE_TIMEOUT_MS, subscriptions, type Link, type Subscriptions } from './live-subscriptions';
import { sheetPages, withSheet } from './live-sheet-pages';

/**
 * One snapshot of a match for a page that shows the state only: set-up and state at `version`, and the
 * statistics' figures a scorebug shows (average, racks won) when the server sent them with that version
 * (`scorebug` detail: its ack and every push).
 */
export interface ScorebugFeed {
  matchId: string;
  version: number;
  setup: MatchSetup;
  state: MatchState;
  figures?: ScorebugFigures;
}

/** One snapshot of a match as pages render it: set-up, state and derived stats at `version`. */
export interface MatchFeed extends ScorebugFeed {
  stats: MatchStats;
}

/** The value a match subscription holds: with the statistics while it is `full` (once they came). */
export type HeldFeed = ScorebugFeed & { stats?: MatchStats };

/** A state at a new version: a `state` push, or a record's ack; `stats` what changed since `version − 1`. */
export type MatchPush = ScorebugSnapshot & { stats?: StatsDelta };

/** How a `full` subscription moves on from `held` by `push` (its state already in `feed`); null: ask again. */
export type FullFollower = (held: HeldFeed, push: MatchPush, feed: HeldFeed) => HeldFeed | null;

/**
 * The {@link FullFollower} that applies a push's statistics delta with `applyDelta` (`applyStatsDelta`), only to
 * the statistics held at exactly the version before (anything else, e.g. a gap in versions: null, ask again).
 */
export function followStats(applyDelta: (stats: MatchStats, delta: StatsDelta) => MatchStats | null): FullFollower {
  return (held, push, feed) => {
    const stats = held.stats && push.stats?.since === held.version ? applyDelta(held.stats, push.stats) : null;
    return stats ? { ...feed, stats } : null;
  };
}

/** The match subscriptions of one connection, and the detail each watched match is subscribed at. */
export interface MatchSubscriptions {
  readonly subs: Subscriptions<HeldFeed, MatchPush>;
  readonly details: Map<string, Detail>;
}

/** The match subscriptions over `link`'s `port`; `followFull` moves `full` ones on (`followStats`; needed by `watchFull` only). */
export function matchSubscriptions(link: Link & { readonly port: LivePort }, followFull?: FullFollower): MatchSubscriptions {
  const details = new Map<string, Detail>();
  const detailOf = (matchId: string): Detail => details.get(matchId) ?? 'scorebug';
  const pages = sheetPages(link.port);
  const subs = subscriptions<HeldFeed, MatchPush>(link, {
    ask(matchId, held, done) {
      const detail = detailOf(matchId);
      const req: SubscribeRequest = {
        protocol: PROTOCOL_VERSION,
        matchId,
        detail,
        ...(held ? { sinceVersion: held.version } : {}),
        ...(detail === 'full' ? { pages: true as const } : {}),
      };
      pages.drop(matchId);
      link.port.timeout(SUBSCRIBE_TIMEOUT_MS).emit('subscribe', req, (err, ack) => {
        if (err || !ack) return done(null);
        if (!ack.ok) return done(null, ack.error);
        // In the room already and at the latest version (we named it): what we hold is current, the pushes keep it so.
        if ('unchanged' in ack) return done(held);
        if (ack.detail === 'full' && ack.sheetFrom) {
          // A long sheet: the newest rows came; the older ones follow in pages, then the feed is whole.
          const { ok: _ok, detail: _detail, sheetFrom, ...feed } = ack;
          return pages.expect(matchId, ack.version, sheetFrom, feed.stats.sheet, (sheet, error) =>
            done(sheet && { ...feed, stats: withSheet(feed.stats, sheet) }, error),
          );
        }
        const { ok: _ok, detail: _detail, ...feed } = ack; // set-up, state and (detail `full`) statistics
        done(feed);
      });
    },
    leave(matchId, tell) {
      pages.drop(matchId);
      details.delete(matchId);
      if (tell) link.port.emit('unsubscribe', { matchId });
    },
    follow(matchId, held, push) {
      // The figures belong to their version: a push without them (a duplicate's ack) leaves none, not old ones.
      const { figures: _old, ...rest } = held;
      const feed: HeldFeed = { ...rest, version: push.version, state: push.state, ...(push.figures ? { figures: push.figures } : {}) };
      // A scorebug push is a whole state: nothing to catch up.
      return followFull && detailOf(matchId) === 'full' ? followFull(held, push, feed) : feed;
    },
  });
  link.port.on('state', (msg) => subs.push(msg.matchId, msg));
  return { subs, details };
}

/**
 * Watch match `matchId`'s state only (detail `scorebug`, unless it is watched `full` already): `onFeed` hears
 * each newer state in version order. `onError` hears a refused subscription (`not-found`, or
 * `protocol-mismatch`: the page is from another build and must be reloaded). Returns the function that stops.
 */
export function watchScorebug(m: MatchSubscriptions, matchId: string, onFeed: (f: ScorebugFeed) => void, onError?: (e: ApiError) => void): () => void {
  if (!m.details.has(matchId)) m.details.set(matchId, 'scorebug');
  return m.subs.watch(matchId, (f) => f, onFeed, onError);
}

/** A held feed with its statistics, or null while they have not come. */
const withStats = (f: HeldFeed): MatchFeed | null => (f.stats ? { ...f, stats: f.stats } : null);

/**
 * Watch match `matchId` with its statistics (detail `full`; a match watched `scorebug` so far is subscribed
 * again at `full`): like {@link watchScorebug}, each feed with the statistics, and a gap in versions asks again.
 */
export function watchFull(m: MatchSubscriptions, matchId: string, onFeed: (f: MatchFeed) => void, onError?: (e: ApiError) => void): () => void {
  const upgrade = m.details.get(matchId) === 'scorebug';
  m.details.set(matchId, 'full');
  const stop = m.subs.watch(matchId, withStats, onFeed, onError);
  if (upgrade) m.subs.resync(matchId); // the statistics come with the next subscribe ack
  return stop;
}
