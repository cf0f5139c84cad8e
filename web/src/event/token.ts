/**
 * Organiser tokens kept in the browser, one per event (`cuecast.organiser.<eventId>` in localStorage). The
 * organiser link carries the token in the URL fragment (`/event/<id>#token=…`, never sent to the server or
 * its logs); the page saves it and strips it from the address bar.
 */
import type { OutboxStorage } from '../lib/outbox';
import { readItem, writeItem } from '../lib/storage';

const key = (eventId: string) => `cuecast.organiser.${eventId}`;

export function loadOrganiserToken(storage: OutboxStorage | null, eventId: string): string | null {
  return readItem(storage, key(eventId));
}

/** Keep `token` for the event (null or empty: forget it). */
export function saveOrganiserToken(storage: OutboxStorage | null, eventId: string, token: string | null): void {
  writeItem(storage, key(eventId), token || null);
}

/** The organiser link of an event (token in the fragment). */
export function organiserLink(origin: string, eventId: string, token: string): string {
  return `${origin}/event/${encodeURIComponent(eventId)}#token=${encodeURIComponent(token)}`;
}
