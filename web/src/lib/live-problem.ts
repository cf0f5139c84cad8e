/**
 * What a page does when the server refuses its subscription (`watch(…, onError)` of ./client), the same on
 * every page (scorer, dashboard, watch):
 * - `not-found`: the match does not exist (or the id cannot be one): "Match not found", no live chip;
 * - `reload`: `protocol-mismatch`, the page is from another build than the server: "reload the page" with a
 *   Reload button (nothing else helps; the client's retries would be refused the same way);
 * - `busy` (`rate-limited`) and `server-error` (`internal`, and the store's `store-unavailable` / `outcome-unknown`): transient; the page says so and offers "Retry
 *   now", and the client asks again by itself after a back-off and on every reconnect;
 * - `refused`: any other refusal (a page bug): the server's message and "Retry now".
 * ./LiveProblem.svelte words them (`problem.*` keys of the pages part of the one table, ./i18n/<lang>-pages.ts).
 */
import type { ApiError, ErrorCode } from '../../../shared/protocol/errors';
import { isMatchMissing } from './live-route';

export type LiveProblemKind = 'not-found' | 'reload' | 'busy' | 'server-error' | 'refused';

/** A refused subscription as the page shows it, with the server's error. */
export interface LiveProblem {
  kind: LiveProblemKind;
  error: ApiError;
}

/** Refusals that pass by themselves: the client asks again after a back-off (see ./client). */
export const TRANSIENT_CODES: readonly ErrorCode[] = ['rate-limited', 'internal', 'store-unavailable', 'outcome-unknown'];

/** Classify a refused subscription. */
export function liveProblem(error: ApiError): LiveProblem {
  const kind: LiveProblemKind = isMatchMissing(error)
    ? 'not-found'
    : error.code === 'protocol-mismatch'
      ? 'reload'
      : error.code === 'rate-limited'
        ? 'busy'
        : error.code === 'internal' || error.code === 'store-unavailable' || error.code === 'outcome-unknown'
          ? 'server-error'
          : 'refused';
  return { kind, error };
}
