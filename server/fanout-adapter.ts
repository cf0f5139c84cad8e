/**
 * The official Socket.IO Redis adapter, with one change of order in `broadcast`: the other instances get
 * the message first. node-redis writes queued commands on the next `setImmediate`, and the stock adapter
 * delivers to local sockets synchronously right after queueing the PUBLISH — so every other instance waited
 * for this one's whole local fan-out (thousands of sockets) before Redis even saw the message. Here the
 * local delivery runs in the `setImmediate` after that write, so all instances fan out in parallel.
 * Pushes keep their order: publishes are queued in order and local deliveries run FIFO.
 */
import { RedisAdapter } from '@socket.io/redis-adapter';
import type { Redis } from './redis';

interface Packet {
  nsp?: string;
  [k: string]: unknown;
}
interface BroadcastOptions {
  rooms: Set<string>;
  except?: Set<string>;
  flags?: { local?: boolean; [k: string]: unknown };
}

export class PublishFirstRedisAdapter extends RedisAdapter {
  /** Same channel layout as the stock adapter: `<key>#<nsp>#` plus `<room>#` for a single-room broadcast. */
  private readonly broadcastChannel: string;

  constructor(nsp: { name: string }, pub: Redis, sub: Redis, key: string) {
    super(nsp, pub, sub, { key });
    this.broadcastChannel = `${key}#${nsp.name}#`;
  }

  override broadcast(packet: Packet, opts: BroadcastOptions): void {
    if (opts.flags?.local) return super.broadcast(packet, opts);
    packet.nsp = this.nsp.name;
    const rawOpts = { rooms: [...opts.rooms], except: [...new Set(opts.except)], flags: opts.flags };
    const msg = this.parser.encode([this.uid, packet, rawOpts]);
    const channel = opts.rooms.size === 1 ? `${this.broadcastChannel}${opts.rooms.values().next().value}#` : this.broadcastChannel;
    // A publish that fails (Redis away) is covered by the resync after reconnection; never an unhandled rejection.
    (this.pubClient as Redis).publish(channel, msg).catch(() => undefined);
    const local = { ...opts, flags: { ...opts.flags, local: true } };
    setImmediate(() => super.broadcast(packet, local));
  }
}

/** Adapter factory for `io.adapter(...)` (Socket.IO calls it with `new`, so it is a plain function). */
export function publishFirstAdapter(pub: Redis, sub: Redis, key: string) {
  return function (nsp: { name: string }) {
    return new PublishFirstRedisAdapter(nsp, pub, sub, key);
  };
}
