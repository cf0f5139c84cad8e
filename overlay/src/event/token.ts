/**
 * Organiser tokens kept in the browser, one per event (`cuecast.organiser.<eventId>` in localStorage). The
 * organiser link carries the token in the URL fragment (`/event/<id>#token=…`, never sent to the server or
 * its logs); the page saves it and strips it from the address bar.
 */
import type { OutboxStorage } from '../lib/outbox';

const key = (eventId: string) => `cuecast.organiser.${eventId}`;

export function loadOrganiserToken(storage: OutboxStorage | null, eventId: string): string | null {
  try {
    return storage?.getItem(key(eventId)) ?? null;
  } catch {
    return null;
  }
}

export function saveOrganiserToken(storage: OutboxStorage | null, eventId: string, token: string | null): void {
  try {
    if (token) storage?.setItem(key(eventId), token);
    else storage?.removeItem(key(eventId));
  } catch {
    /* private mode: the token lives for this page only */
  }
}

/** The organiser link of an event (token in the fragment). */
export function organiserLink(origin: string, eventId: string, token: string): string {
  return `${origin}/event/${encodeURIComponent(eventId)}#token=${encodeURIComponent(token)}`;
}
