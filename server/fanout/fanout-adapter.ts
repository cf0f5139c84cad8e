/**
 * Socket.IO adapters over Redis pub/sub: `publishFirstAdapter` (one Redis: PUBLISH) and
 * `publishFirstShardedAdapter` (Redis Cluster: SPUBLISH). PublishFirstRedisAdapter is the official Socket.IO Redis adapter, with one change of order in `broadcast`: the other instances get
 * the message first. node-redis writes queued commands on the next `setImmediate`, and the stock adapter
 * delivers to local sockets synchronously right after queueing the PUBLISH — so every other instance waited
 * for this one's whole local fan-out (thousands of sockets) before Redis even saw the message. Here the
 * local delivery runs in the `setImmediate` after that write, so all instances fan out in parallel.
 * Pushes keep their order: publishes are queued in order and local deliveries run FIFO.
 */
import { RedisAdapter, createShardedAdapter } from '@socket.io/redis-adapter';
import { MessageType, type ClusterAdapter } from 'socket.io-adapter';
import type { Redis } from '../storage/redis';

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

/** The subscriber side of the sharded adapter (node-redis' `sSubscribe` / `sUnsubscribe`, on a client or a cluster). */
interface ShardedSubscriber {
  sSubscribe(channel: string, listener: (message: Buffer, channel: Buffer) => void, bufferMode: true): Promise<void>;
  sUnsubscribe(channel: string): Promise<void>;
}
type Broadcast = (packet: Packet, opts: BroadcastOptions) => unknown;

/**
 * The official sharded Socket.IO Redis adapter (`createShardedAdapter`: SSUBSCRIBE / SPUBLISH, Redis 7), one
 * shard channel per room (`subscriptionMode: 'dynamic'`): a match's two rooms `<channelPrefix>#/#match:<id>#`
 * (with statistics) and `…#scorebug:<id>#`, a table's and an event's — so a Redis Cluster spreads the fan-out
 * over its masters and each room's pushes stay in order on one shard. Two changes, for the guarantees of
 * `PublishFirstRedisAdapter`:
 * - publish first: the stock adapter (socket.io-adapter's ClusterAdapter) awaits SPUBLISH's reply before it
 *   delivers to local sockets; here the publish is queued and the local delivery runs two `setImmediate`s
 *   later — after node-redis wrote it (a cluster client routes a command a few microtasks after the call, so
 *   its write is scheduled after our first `setImmediate`). Local deliveries keep their order (FIFO).
 * - no missed first push: a room's channel is subscribed when its first local viewer joins, one round trip
 *   later; `onRoomSubscribed(room)` runs once that subscription is in place, for the caller to push the
 *   room's current state to its local viewers (clients drop versions they already have). A failed
 *   subscription is logged through `onError` (node-redis subscribes again when it reconnects).
 */
export function publishFirstShardedAdapter(
  pub: object,
  sub: ShardedSubscriber,
  channelPrefix: string,
  hooks: { onRoomSubscribed(room: string): void; onError(err: Error, channel: string): void },
) {
  const roomChannel = `${channelPrefix}#/#`;
  const subscriber: ShardedSubscriber = {
    sSubscribe(channel, listener, bufferMode) {
      const done = sub.sSubscribe(channel, listener, bufferMode);
      done.then(
        () => {
          if (channel.startsWith(roomChannel) && channel.length > roomChannel.length) hooks.onRoomSubscribed(channel.slice(roomChannel.length, -1));
        },
        (err: Error) => hooks.onError(err, channel),
      );
      return done;
    },
    sUnsubscribe(channel) {
      const done = sub.sUnsubscribe(channel);
      done.catch((err: Error) => hooks.onError(err, channel));
      return done;
    },
  };
  const make = createShardedAdapter(pub, subscriber, { channelPrefix, subscriptionMode: 'dynamic' });
  return function (nsp: { name: string }) {
    const adapter = make(nsp as never) as unknown as ClusterAdapter;
    // ClusterAdapter.broadcast with the `local` flag delivers to this instance's sockets only.
    const deliver = adapter.broadcast.bind(adapter) as Broadcast;
    const publish = (adapter as unknown as { publish(message: { type: MessageType; data: unknown }): void }).publish.bind(adapter);
    adapter.broadcast = ((packet: Packet, opts: BroadcastOptions) => {
      if (opts.flags?.local) return deliver(packet, opts);
      // ClusterAdapter.publish never rejects (it logs); pushes lost while Redis is away are resynced after.
      publish({ type: MessageType.BROADCAST, data: { packet, opts: { rooms: [...opts.rooms], except: [...(opts.except ?? [])], flags: opts.flags } } });
      const local = { ...opts, flags: { ...opts.flags, local: true } };
      setImmediate(() => setImmediate(() => void deliver(packet, local)));
    }) as never;
    return adapter;
  };
}
