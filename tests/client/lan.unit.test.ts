/**
 * Links for OBS on another machine (issue 29): a page on localhost / 127.x / ::1 links to the machine's first LAN
 * address on the same protocol and port; any other host keeps its own origin; no LAN address keeps the origin.
 * And `GET /api/lan`'s list: IPv4, not loopback, private ranges first.
 */
import { describe, expect, it } from 'vitest';
import { isLoopback, linkOrigin } from '../../web/src/lib/lan';
import { lanAddresses, reachableFromLan } from '../../server/transport/http/lan';

const at = (protocol: string, hostname: string, port: string) => ({ protocol, hostname, port, origin: `${protocol}//${hostname}${port ? `:${port}` : ''}` });

describe('OBS link origin', () => {
  it('swaps a loopback host for the first LAN address, keeping protocol and port', () => {
    expect(linkOrigin(at('http:', 'localhost', '3000'), ['192.168.1.20', '10.0.0.5'])).toEqual({ origin: 'http://192.168.1.20:3000', lan: '192.168.1.20' });
    expect(linkOrigin(at('https:', '127.0.0.1', ''), ['10.0.0.5'])).toEqual({ origin: 'https://10.0.0.5', lan: '10.0.0.5' });
    expect(linkOrigin(at('http:', '[::1]', '8080'), ['172.16.3.4'])).toEqual({ origin: 'http://172.16.3.4:8080', lan: '172.16.3.4' });
  });
  it('keeps a LAN or public host, and keeps localhost when the machine has no LAN address', () => {
    expect(linkOrigin(at('http:', '192.168.1.20', '3000'), ['10.0.0.5'])).toEqual({ origin: 'http://192.168.1.20:3000', lan: null });
    expect(linkOrigin(at('https:', 'scores.example.org', ''), ['10.0.0.5'])).toEqual({ origin: 'https://scores.example.org', lan: null });
    expect(linkOrigin(at('http:', 'localhost', '3000'), [])).toEqual({ origin: 'http://localhost:3000', lan: null });
    expect(isLoopback('localhost.example.org')).toBe(false);
  });
  it('the server lists IPv4 addresses that are not loopback, private ones first', () => {
    const list = lanAddresses();
    for (const a of list) {
      expect(a).toMatch(/^\d+\.\d+\.\d+\.\d+$/);
      expect(a.startsWith('127.')).toBe(false);
    }
    const priv = list.map((a) => /^(192\.168\.|10\.|172\.(1[6-9]|2\d|3[01])\.)/.test(a));
    expect(priv).toEqual([...priv].sort((x, y) => Number(y) - Number(x)));
  });
  it('offers no LAN address while the server listens on a loopback address (other machines cannot reach it)', () => {
    for (const host of ['127.0.0.1', '127.1.2.3', 'localhost', '::1']) expect(reachableFromLan(host), host).toBe(false);
    for (const host of ['0.0.0.0', '::', '192.168.1.20', undefined]) expect(reachableFromLan(host), String(host)).toBe(true);
  });
});
