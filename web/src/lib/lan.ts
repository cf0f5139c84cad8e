/**
 * The origin to put in a link for another machine (OBS on a second computer, issue 29): the page's own origin,
 * unless the page was opened as `localhost` (or 127.0.0.1, ::1), which only this machine can reach; then the same
 * protocol and port on this machine's first LAN address (`GET /api/lan`). `lanNote` is set when the origin was
 * swapped, so the page can say why the link differs from its own address.
 */
import { call } from './rest';

/** A page address a link for another machine should use, and the LAN address used instead of `localhost`. */
export interface LinkOrigin {
  origin: string;
  /** The LAN address used in place of the page's loopback host (null: the page's own origin is kept). */
  lan: string | null;
}

const LOOPBACK = /^(localhost|127\.\d+\.\d+\.\d+|\[::1\])$/;

/** Whether `hostname` names this machine only (localhost, 127.x, ::1). */
export function isLoopback(hostname: string): boolean {
  return LOOPBACK.test(hostname);
}

/** `loc`'s origin, or for a loopback host the origin on the first of `addresses` (same protocol and port). */
export function linkOrigin(loc: { protocol: string; hostname: string; port: string; origin: string }, addresses: readonly string[]): LinkOrigin {
  const lan = isLoopback(loc.hostname) ? (addresses[0] ?? null) : null;
  return lan ? { origin: `${loc.protocol}//${lan}${loc.port ? `:${loc.port}` : ''}`, lan } : { origin: loc.origin, lan: null };
}

/** The link origin for this page: asks the server for its LAN addresses only when the page is on a loopback host. */
export async function pageLinkOrigin(): Promise<LinkOrigin> {
  if (!isLoopback(location.hostname)) return { origin: location.origin, lan: null };
  const r = await call<{ addresses: string[] }>('/api/lan', {});
  return linkOrigin(location, r.ok ? r.value.addresses : []);
}
