/**
 * node-redis v5 client factory: every client gets an `error` listener (an unhandled `error` event would
 * crash the process while Redis is away), a bounded reconnect back-off, and logs its state changes.
 */
import { createClient } from 'redis';
import type { Logger } from 'pino';

export type Redis = ReturnType<typeof createClient>;

/**
 * Create and connect a client to `url`. While Redis is unreachable the client keeps reconnecting
 * (50 ms, 100 ms, … capped at 1 s) and queues commands until it is back.
 * @throws when the first connection fails within `connectTimeoutMs`.
 */
export async function connectRedis(url: string, log: Logger, name: string, connectTimeoutMs = 5000): Promise<Redis> {
  const client: Redis = createClient({
    url,
    // Shows up in CLIENT LIST (e.g. cuecast-sub) when debugging a deployment.
    name: `cuecast-${name}`,
    socket: {
      connectTimeout: connectTimeoutMs,
      reconnectStrategy: (retries) => Math.min(50 * (retries + 1), 1000),
    },
  });
  let down = false;
  client.on('error', (err: Error) => {
    if (!down) log.warn({ redis: name, err: err.message }, 'redis connection error');
    down = true;
  });
  client.on('ready', () => {
    if (down) log.info({ redis: name }, 'redis reconnected');
    down = false;
  });
  const timer = setTimeout(() => {
    if (!client.isReady) client.destroy();
  }, connectTimeoutMs);
  try {
    await client.connect();
  } catch (err) {
    throw new Error(`Redis not reachable at ${url}: ${(err as Error).message}`);
  } finally {
    clearTimeout(timer);
  }
  return client;
}

/** Quit a client gracefully (flushes queued commands); destroy it if that fails or takes over 2 s. */
export async function closeRedis(client: Redis): Promise<void> {
  if (!client.isOpen) return;
  const timeout = new Promise<'timeout'>((r) => setTimeout(() => r('timeout'), 2000).unref());
  try {
    const res = await Promise.race([client.close().then(() => 'ok' as const), timeout]);
    if (res === 'timeout' && client.isOpen) client.destroy();
  } catch {
    if (client.isOpen) client.destroy();
  }
}
