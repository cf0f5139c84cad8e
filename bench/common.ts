/**
 * What the fan-out benchmarks (`npm run bench`, `npm run bench:tables`) share: a scorer's socket, the
 * percentile of their tables, the latest of the viewers' report times, and the deletion of their throw-away
 * Redis keys.
 */
import { createClient } from 'redis';
import { io, type Socket } from 'socket.io-client';

/** A websocket connection to `url`, with the scorer `token` in the handshake when given. */
export function connect(url: string, token?: string): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const s = io(url, { transports: ['websocket'], forceNew: true, auth: token ? { token } : {} });
    s.once('connect', () => resolve(s));
    s.once('connect_error', reject);
  });
}

/** The `p` percentile (0…1, nearest rank) of `xs`; NaN when empty. */
export function pct(xs: number[], p: number): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.max(0, Math.ceil(p * s.length) - 1))] ?? NaN;
}

/** The latest `at` (process.hrtime, as a string) of the viewers' reports. */
export function latest(reports: readonly { at: string }[]): bigint {
  return reports.map((d) => BigInt(d.at)).reduce((a, b) => (a > b ? a : b));
}

/** Delete every key under `prefix` from the Redis at `url` (a run's throw-away keys). */
export async function deleteKeys(url: string, prefix: string): Promise<void> {
  const r = createClient({ url });
  r.on('error', () => undefined);
  await r.connect();
  for await (const keys of r.scanIterator({ MATCH: `${prefix}*`, COUNT: 500 })) if (keys.length) await r.del(keys);
  await r.close();
}
