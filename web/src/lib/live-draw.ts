/**
 * The draw subscriptions of a live client (`drawClient(client)`), over the same core as matches, tables and
 * events (./live-subscriptions.ts: resync on every (re)connect and when the page becomes visible, back-off
 * retries after a transient refusal, the last good value kept while disconnected): `subscribeDraw` answers the
 * whole draw (`DrawPage`), then the room's `draw` pushes carry only what changed (`DrawDelta`), applied with
 * shared/draw `withDelta` to the view held at exactly `delta.from` entries of the same draw; any other push (a
 * gap, a draw made again: `from` −1, another `createdAt`) asks the server again for the whole draw.
 *
 * A draw's stored version starts again at 0 when the draw is replaced, so the core's versions are this client's
 * own arrival count (every answer and push is newer than the last); the draw's (createdAt, version) order is
 * checked here: an answer older than the view held is dropped.
 */
import type { DrawPage, DrawPush } from '../../../shared/protocol/draw';
import { withDelta } from '../../../shared/draw/view';
import type { ApiError } from '../../../shared/protocol/errors';
import { PROTOCOL_VERSION } from '../../../shared/protocol/wire';
import type { Connection } from './live-connection';
import { SUBSCRIBE_TIMEOUT_MS, subscriptions } from './live-subscriptions';

/** A draw page value as the core holds it: the page and this client's arrival number. */
interface Held {
  version: number;
  page: DrawPage;
}
interface Pushed {
  version: number;
  push: DrawPush;
}

/** The draw subscriptions of one live client. */
export interface DrawClient {
  /**
   * Follow the draw of event `eventId`: `onDraw` hears the whole draw page now and after every change (a match
   * started, a result, a correction). `onError` hears a refused subscription (`not-found` naming `eventId` or
   * `draw`, `protocol-mismatch`). Returns the function that stops following.
   */
  watchDraw(eventId: string, onDraw: (d: DrawPage) => void, onError?: (e: ApiError) => void): () => void;
}

const drawClients = new WeakMap<Connection, DrawClient>();

/** The draw subscriptions over `client`'s connection (one set per connection, made on first use). */
export function drawClient(client: { readonly connection: Connection }): DrawClient {
  let made = drawClients.get(client.connection);
  if (!made) drawClients.set(client.connection, (made = openDraws(client.connection)));
  return made;
}

/** Whether draw page `a` is older than `b` (the same draw at a lower version, or an older draw). */
const older = (a: DrawPage, b: DrawPage) => a.createdAt < b.createdAt || (a.createdAt === b.createdAt && a.version < b.version);

function openDraws(connection: Connection): DrawClient {
  const port = connection.port;
  let arrivals = 0;
  const draws = subscriptions<Held, Pushed>(connection, {
    ask(eventId, held, done) {
      port.timeout(SUBSCRIBE_TIMEOUT_MS).emit('subscribeDraw', { protocol: PROTOCOL_VERSION, eventId }, (err, ack) => {
        if (!ack?.ok) return done(null, ack?.error);
        const { ok: _ok, ...page } = ack;
        // An answer older than the view held (a push overtook it): keep the held one.
        done(held && older(page, held.page) ? held : { version: ++arrivals, page });
      });
    },
    leave(eventId, tell) {
      if (tell) port.emit('unsubscribeDraw', { eventId });
    },
    follow(_eventId, held, { push }) {
      const page = held.page;
      if (push.delta.from < 0 || push.createdAt !== page.createdAt) return null;
      if (push.version <= page.version) return held; // already in the view held
      if (push.delta.from !== page.draw.entries) return null; // a gap: ask again
      return { version: ++arrivals, page: { ...page, version: push.version, draw: withDelta(page.draw, push.delta) } };
    },
  });
  port.on('draw', (push) => draws.push(push.eventId, { version: ++arrivals, push }));
  return {
    watchDraw(eventId, onDraw, onError) {
      return draws.watch(eventId, (h) => h.page, onDraw, onError);
    },
  };
}
