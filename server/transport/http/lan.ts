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

/** Add `GET /lan` to the `/api` router `r`. */
export function lanRoutes(r: Router): void {
  r.get('/lan', (_req, res) => {
    res.setHeader('Cache-Control', 'no-store');
    res.json({ addresses: lanAddresses() });
  });
}
