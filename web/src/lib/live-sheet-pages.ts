/**
 * A long score sheet that comes in pages (`SubscribeRequest.pages`, shared/protocol/wire.ts): the subscribe ack
 * carries the newest rows and `sheetFrom`; rows 0 … sheetFrom − 1 follow as `sheetPage` messages of the ack's
 * version. `sheetPages(port)` puts them together: `expect` waits for the pages of one ack and hands over the
 * whole sheet once every row came. A page that stops coming (SUBSCRIBE_TIMEOUT_MS after the last one) answers
 * `rate-limited` (the subscription asks again after its back-off); a newer ask for the match, or leaving
 * it, drops what was waited for without an answer.
 */
import type { ApiError } from '../../../shared/protocol/errors';
import type { SheetRow } from '../../../shared/protocol/state';
import type { MatchStats, SheetPage } from '../../../shared/protocol/wire';
import type { LivePort } from './live-port';
import { SUBSCRIBE_TIMEOUT_MS } from './live-subscriptions';

interface Waiting {
  version: number;
  /** Rows 0 … upTo − 1 are awaited. */
  upTo: number;
  pages: Map<number, SheetRow[]>;
  got: number;
  timer: ReturnType<typeof setTimeout> | undefined;
  whole: (sheet: SheetRow[] | null, error?: ApiError) => void;
}

/** The pages of each match's latest paged answer on one connection. */
export interface SheetPages {
  /**
   * Wait for rows 0 … `upTo` − 1 of match `matchId`'s sheet at `version`, then call `whole` with them followed by
   * `newest` (the rows the ack carried); `whole(null, error)` when they stop coming. Replaces any earlier wait.
   */
  expect(matchId: string, version: number, upTo: number, newest: SheetRow[], whole: (sheet: SheetRow[] | null, error?: ApiError) => void): void;
  /** Stop waiting for match `matchId` (left, or asked again): its callback is never called. */
  drop(matchId: string): void;
}

/** The page collector over `port` (listens to its `sheetPage` messages). */
export function sheetPages(port: Pick<LivePort, 'on'>): SheetPages {
  const waiting = new Map<string, Waiting>();
  const stalled: ApiError = { code: 'rate-limited', message: 'the score sheet stopped arriving; asking again' };

  const drop = (matchId: string) => {
    const w = waiting.get(matchId);
    if (!w) return;
    clearTimeout(w.timer);
    waiting.delete(matchId);
  };
  const arm = (matchId: string, w: Waiting) => {
    clearTimeout(w.timer);
    w.timer = setTimeout(() => {
      if (waiting.get(matchId) !== w) return;
      waiting.delete(matchId);
      w.whole(null, stalled);
    }, SUBSCRIBE_TIMEOUT_MS);
  };

  port.on('sheetPage', (p: SheetPage) => {
    const w = waiting.get(p.matchId);
    if (!w || w.version !== p.version || w.pages.has(p.from)) return;
    w.pages.set(p.from, p.rows);
    w.got += p.rows.length;
    if (w.got < w.upTo) return arm(p.matchId, w);
    drop(p.matchId);
    const sheet = [...w.pages.entries()].sort((a, b) => a[0] - b[0]).flatMap(([, rows]) => rows);
    w.whole(sheet);
  });

  return {
    expect(matchId, version, upTo, newest, whole) {
      drop(matchId);
      const w: Waiting = { version, upTo, pages: new Map(), got: 0, timer: undefined, whole: (sheet, error) => whole(sheet && [...sheet, ...newest], error) };
      waiting.set(matchId, w);
      arm(matchId, w);
    },
    drop,
  };
}

/** `stats` with `sheet` as its score sheet. */
export function withSheet(stats: MatchStats, sheet: SheetRow[]): MatchStats {
  return { ...stats, sheet };
}
