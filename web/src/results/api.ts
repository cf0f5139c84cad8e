/** The results page's REST call (server/transport/http/results-api.ts). */
import type { EventResults } from '../../../shared/protocol/results';
import { call, jsonRequest, type Result } from '../lib/rest';

/** `GET /api/events/<id>/results.json`. */
export function fetchResults(eventId: string): Promise<Result<EventResults>> {
  return call<EventResults>(`/api/events/${encodeURIComponent(eventId)}/results.json`, jsonRequest('GET', undefined));
}

/**
 * Run `fn` at most once per `ms`: a call while one is pending or within `ms` of the last run is folded into one
 * run at the end of the wait (the newest facts are always fetched). @returns the trigger and a stop.
 */
export function throttled(fn: () => void, ms: number): { trigger(): void; stop(): void } {
  let timer: ReturnType<typeof setTimeout> | null = null;
  let last = 0;
  return {
    trigger() {
      if (timer) return;
      const wait = Math.max(0, last + ms - Date.now());
      timer = setTimeout(() => {
        timer = null;
        last = Date.now();
        fn();
      }, wait);
    },
    stop() {
      if (timer) clearTimeout(timer);
      timer = null;
    },
  };
}
