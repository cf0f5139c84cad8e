/**
 * Starting against a Redis that does not answer: the first connection fails with a message naming the URL
 * and the reason (not "The client is closed" from a later command on a client that never connected).
 */
import { createServer } from 'node:net';
import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import { connectRedis, connectRedisCluster } from '../../server/storage/redis';

/** A local port nothing listens on. */
async function closedPort(): Promise<number> {
  const srv = createServer();
  await new Promise<void>((r) => srv.listen(0, '127.0.0.1', r));
  const port = (srv.address() as { port: number }).port;
  await new Promise((r) => srv.close(r));
  return port;
}

describe('connectRedis', () => {
  it('rejects when Redis does not answer in time, naming the URL and why; nothing is left running', async () => {
    const url = `redis://127.0.0.1:${await closedPort()}`;
    const log = pino({ level: 'silent' });
    await expect(connectRedis(url, log, 'data', 300)).rejects.toThrow(new RegExp(`^Redis not reachable at ${url}: .*ECONNREFUSED`));
  });

  it('a Redis Cluster whose seed nodes do not answer: the same, naming the seeds', async () => {
    const urls = [`redis://127.0.0.1:${await closedPort()}`, `redis://127.0.0.1:${await closedPort()}`];
    const log = pino({ level: 'silent' });
    await expect(connectRedisCluster(urls, log, 'data', { connectTimeoutMs: 300 })).rejects.toThrow(
      /^Redis Cluster not reachable at redis:\/\/127\.0\.0\.1:\d+,redis:/,
    );
  });
});
