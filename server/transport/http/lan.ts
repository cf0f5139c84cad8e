/**
 * `GET /api/lan` → `{addresses: string[]}`: this machine's IPv4 addresses on its local networks (not loopback), so
 * a page opened as `localhost` can offer OBS on another computer a link it can reach (issue 29: *Copy OBS URL*
 * gave `http://localhost:3000/…`). Read at each request (a laptop changes networks); public, no secrets.
 */
import { networkInterfaces } from 'node:os';
import type { Router } from 'express';

/** The machine's non-internal IPv4 addresses, private ranges (192.168/16, 10/8, 172.16/12) first. */
export function lanAddresses(): string[] {
  const all = Object.values(networkInterfaces())
    .flat()
    .filter((a) => a !== undefined && a.family === 'IPv4' && !a.internal)
    .map((a) => a!.address);
  const isPrivate = (ip: string) => /^(192\.168\.|10\.|172\.(1[6-9]|2\d|3[01])\.)/.test(ip);
  return [...new Set(all)].sort((a, b) => Number(isPrivate(b)) - Number(isPrivate(a)));
}

/** True when a server listening on `host` can be reached from other machines (all interfaces or a LAN address). */
export function reachableFromLan(host: string | undefined): boolean {
  return host === undefined || !/^(127\.|localhost$|::1$|\[::1\]$)/.test(host);
}

/**
 * Add `GET /lan` to the `/api` router `r`: `{addresses, listening}`. While the server listens on a loopback address
 * (`HOST` unset: 127.0.0.1), other machines cannot reach it: no address is offered (`addresses: []`) and
 * `listening` says where it listens, so the page can say to start it with `HOST=0.0.0.0`.
 */
export function lanRoutes(r: Router, listenHost: () => string | undefined = () => undefined): void {
  r.get('/lan', (_req, res) => {
    res.setHeader('Cache-Control', 'no-store');
    const host = listenHost();
    res.json({ addresses: reachableFromLan(host) ? lanAddresses() : [], listening: host ?? null });
  });
}
