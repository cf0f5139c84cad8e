/**
 * Sponsors' logos of an event, pure parts: the image type read from the bytes (never from a file name or a
 * Content-Type the client sent), and the changes of the event document's `sponsors` list (add, change name /
 * seconds / position, remove). The event service stores the bytes in the sponsor store and runs these in the
 * event's serial queue.
 */
import { SPONSOR_LIMITS, type SponsorInfo, type SponsorType } from '../../shared/protocol/event';
import type { TournamentDoc } from '../storage/ports';
import { fail, type Failure } from '../failure';
import { unsafeTextReason } from '../../shared/protocol/limits';

const startsWith = (b: Uint8Array, sig: readonly number[], at = 0) => sig.every((v, i) => b[at + i] === v);
const ascii = (s: string) => [...s].map((c) => c.charCodeAt(0));

/**
 * The type of an image by its content: PNG (its 8-byte signature), JPEG (FF D8 FF), WebP (`RIFF….WEBP`), or
 * SVG (UTF-8 text whose first element, after an optional BOM, XML declaration, comments and doctype, is
 * `<svg`). Null for anything else.
 */
export function sniffImageType(bytes: Uint8Array): SponsorType | null {
  if (startsWith(bytes, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return 'image/png';
  if (startsWith(bytes, [0xff, 0xd8, 0xff])) return 'image/jpeg';
  if (startsWith(bytes, ascii('RIFF')) && startsWith(bytes, ascii('WEBP'), 8)) return 'image/webp';
  const head = Buffer.from(bytes.subarray(0, 4096))
    .toString('utf8')
    .replace(/^\uFEFF/, '');
  const rest = head.replace(/^\s*(<\?xml[^>]*\?>\s*)?((<!--[\s\S]*?-->|<!DOCTYPE[^>]*>)\s*)*/i, '');
  return /^<svg[\s>]/i.test(rest) ? 'image/svg+xml' : null;
}

/** Seconds on screen from untrusted input: an integer in SPONSOR_LIMITS' range, or a Failure naming `seconds`. */
export function sponsorSeconds(v: unknown): number | Failure {
  if (v === undefined || v === null || v === '') return SPONSOR_LIMITS.defaultSeconds;
  const n = Number(v);
  if (!Number.isInteger(n) || n < SPONSOR_LIMITS.minSeconds || n > SPONSOR_LIMITS.maxSeconds) {
    return fail(
      'invalid-event',
      `seconds: a whole number of seconds from ${SPONSOR_LIMITS.minSeconds} to ${SPONSOR_LIMITS.maxSeconds}, not "${String(v)}"`,
      'seconds',
    );
  }
  return n;
}

/**
 * A sponsor name from untrusted input: trimmed, 1–60 characters, none of them unsafe on air or in a feed (the
 * display-text rule of every other name, shared/protocol/limits.ts `unsafeTextReason`), or a Failure naming `name`.
 */
export function sponsorName(v: unknown): string | Failure {
  const s = typeof v === 'string' ? v.trim() : '';
  if (!s || s.length > SPONSOR_LIMITS.name) {
    return fail('invalid-event', `name: the sponsor's name, 1–${SPONSOR_LIMITS.name} characters`, 'name');
  }
  const why = unsafeTextReason(s);
  if (why) return fail('invalid-event', `name: the sponsor's name ${why}`, 'name');
  return s;
}

/** `doc` with sponsor `s` added at the end; `invalid-event` naming `sponsors` past SPONSOR_LIMITS.count. */
export function withSponsor(doc: TournamentDoc, s: SponsorInfo): TournamentDoc | Failure {
  const list = doc.sponsors ?? [];
  if (list.length >= SPONSOR_LIMITS.count)
    return fail('invalid-event', `sponsors: an event has at most ${SPONSOR_LIMITS.count} sponsors' logos; remove one first`, 'sponsors');
  return { ...doc, sponsors: [...list, s] };
}

/**
 * `doc` with sponsor `id` changed: its name, its seconds, and with `position` (0-based, clamped) moved in the
 * order. `not-found` naming `sponsorId` when the event has no such sponsor.
 */
export function withSponsorPatch(doc: TournamentDoc, id: string, patch: { name?: string; seconds?: number; position?: number }): TournamentDoc | Failure {
  const list = [...(doc.sponsors ?? [])];
  const i = list.findIndex((s) => s.id === id);
  if (i < 0) return fail('not-found', `sponsorId: event "${doc.id}" has no sponsor "${id}"`, 'sponsorId');
  const s: SponsorInfo = {
    ...list[i]!,
    ...(patch.name !== undefined ? { name: patch.name } : {}),
    ...(patch.seconds !== undefined ? { seconds: patch.seconds } : {}),
  };
  list.splice(i, 1);
  const at = patch.position === undefined ? i : Math.max(0, Math.min(list.length, patch.position));
  list.splice(at, 0, s);
  return { ...doc, sponsors: list };
}

/** `doc` without sponsor `id` (`not-found` naming `sponsorId` when there is none). */
export function withoutSponsor(doc: TournamentDoc, id: string): TournamentDoc | Failure {
  const list = doc.sponsors ?? [];
  if (!list.some((s) => s.id === id)) return fail('not-found', `sponsorId: event "${doc.id}" has no sponsor "${id}"`, 'sponsorId');
  return { ...doc, sponsors: list.filter((s) => s.id !== id) };
}
