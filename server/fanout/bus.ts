/**
 * The bus: how pushes reach the viewers connected to other instances. It gives Socket.IO its adapter (the
 * Redis pub/sub adapters of server/fanout/fanout-adapter.ts, or none: Socket.IO's in-memory adapter, one
 * instance) and tells the fan-out when this instance's viewers may have missed pushes.
 */

/** When viewers of this instance may have missed pushes, and must get the current state again. */
export interface ResyncHooks {
  /** After a pub/sub reconnection: every match, table and event with viewers here. */
  reconnected(): void;
  /** A room's pub/sub subscription is in place (cluster mode; its first viewer here joined just before). */
  roomSubscribed(room: string): void;
}

/** The fan-out between instances. */
export interface Bus {
  /** `local`: this instance only; `redis`: PUBLISH on one Redis; `cluster`: sharded SPUBLISH on a Redis Cluster. */
  readonly mode: 'local' | 'redis' | 'cluster';
  /**
   * The Socket.IO adapter (constructor) for `io.adapter(...)`, calling `hooks` when a resync is due; undefined
   * keeps Socket.IO's in-memory adapter. Called once.
   */
  adapter(hooks: ResyncHooks): unknown;
  /** Every connection up (for /healthz). */
  healthy(): boolean;
  /** Close the bus's connections (after Socket.IO and the stores closed). */
  close(): Promise<void>;
}

/** One instance, no fan-out beyond it: Socket.IO's own in-memory adapter. */
export function localBus(): Bus {
  return { mode: 'local', adapter: () => undefined, healthy: () => true, close: async () => {} };
}
