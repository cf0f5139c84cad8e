/**
 * `GET /healthz`: 200 `{ ok: true, … }` while the server can keep what it acknowledges, else 503 `{ ok: false, … }`
 * (Redis away, or the store refusing writes, e.g. Redis out of memory or a full disk). The body names the
 * store (`kind`), the Redis mode when there is one, and the store's health detail: damaged rows (served up to
 * their last good step), the current refusal streak, and the refusals since start.
 */
import type { RequestHandler } from 'express';
import type { StoreHealth } from '../../storage/store-errors';

/** What `/healthz` asks of the bus between instances (server/fanout/bus.ts `Bus`). */
export interface BusHealth {
  readonly mode: 'local' | 'redis' | 'cluster';
  /** Every connection up. */
  healthy(): boolean;
}

/** The `/healthz` handler over the bus's connections and the stores' health. */
export function healthz(parts: { bus: BusHealth; health: StoreHealth; storeKind: string }): RequestHandler {
  const { bus, health, storeKind } = parts;
  return (_req, res) => {
    const ok = bus.healthy() && !health.failing;
    res.status(ok ? 200 : 503).json({ ok, store: storeKind, ...(bus.mode !== 'local' ? { redis: bus.mode } : {}), ...health.detail() });
  };
}
