/**
 * The wiring of the match server, and nothing else: `createServer` takes its parts — the stores, the bus
 * between instances, the clock and the logger — and joins them: the services over the stores (server/services.ts,
 * with the domain's reactions to a recorded step: server/reactions.ts), express (REST + pages, `/healthz`:
 * transport/http/health.ts) and Socket.IO (websocket transport only) on one HTTP server, the fan-out to viewers
 * over the bus (server/fanout/viewers.ts), the idle sweep (server/matches/idle-sweep.ts) and the close sequence
 * (server/shutdown.ts). Which parts (Redis, a Redis Cluster, the embedded SQLite store, memory), from which
 * settings, is server/backends.ts. Websocket admission (Origin, connections per address and in total) is
 * transport/connection-limits.ts.
 */
import { createServer as createHttpServer } from 'node:http';
import { fileURLToPath } from 'node:url';
import { resolve } from 'node:path';
import express from 'express';
import helmet from 'helmet';
import cors from 'cors';
import type { Logger } from 'pino';
import { Server } from 'socket.io';
import type { ClientToServerEvents, ServerToClientEvents } from '../shared/protocol/wire';
import { systemClock, type Clock } from './clock';
import { AssistantService } from './assistant/service';
import type { EventService } from './events/service';
import type { Bus } from './fanout/bus';
import { ViewerFanout } from './fanout/viewers';
import { IdleSweep } from './matches/idle-sweep';
import type { MatchService } from './matches/service';
import { wireServices, type Stores, type WebhookSettings } from './services';
import { shutdown, trackConnections } from './shutdown';
import { apiRouter } from './transport/http/api';
import { healthz } from './transport/http/health';
import { staticRouter } from './transport/http/static';
import { attachProtocol, type IoServer, type SocketLimits } from './transport/socket';
import { drawHandlers } from './transport/socket-draws';
import { tournamentHandlers } from './transport/socket-tournaments';
import { shotClockHandlers } from './transport/socket-shot-clock';
import { releaseUpgradeRequest } from './transport/socket-memory';
import { preEncodeSharedAck, sharedReplyParser } from './transport/shared-replies';
import { capConnections, ConnectionGate, OriginPolicy, type ConnectionLimits } from './transport/connection-limits';
import { StoreHealth } from './storage/store-errors';
import { SHEET_PAGE_ROWS } from '../shared/protocol/wire';

/** Limits and hardening knobs; every field has a production default. */
export interface Limits extends SocketLimits, ConnectionLimits {
  /** REST requests per minute per client address (default 600). */
  requestsPerMinute: number;
  /** Matches one client address may create per hour (default 100; refused ones do not count). */
  matchesPerHour: number;
  /** Largest REST JSON body in bytes (default 16 KiB). */
  bodyLimitBytes: number;
  /** Largest Socket.IO frame in bytes; bigger frames close the connection (default 64 KiB). */
  maxFrameBytes: number;
  /** A loaded match nobody watches and nobody recorded for this long (ms) is dropped from memory (default 30 min). */
  idleMatchMs: number;
  /**
   * Socket.IO heartbeat: the server pings every `pingIntervalMs` and drops a client that has not answered within
   * `pingTimeoutMs`; a client that hears no ping for their sum reconnects (a frozen instance behind a balancer is
   * left that fast). Defaults Socket.IO's, 25 s and 20 s; docker-compose.yml uses 1 s and 1.5 s.
   */
  pingIntervalMs: number;
  pingTimeoutMs: number;
}

export const DEFAULT_LIMITS: Limits = {
  messagesPerSecond: 20,
  burst: 60,
  maxSubscriptions: 20,
  replyBufferBytes: 512 * 1024,
  maxBufferedBytes: 4 * 1024 * 1024,
  sheetPageRows: SHEET_PAGE_ROWS,
  replyBurstBytes: 1024 * 1024,
  replyBytesPerSecond: 256 * 1024,
  requestsPerMinute: 600,
  matchesPerHour: 100,
  socketsPerAddress: 200,
  connectionsPerAddress: 256,
  maxSockets: 20_000,
  bodyLimitBytes: 16 * 1024,
  maxFrameBytes: 64 * 1024,
  idleMatchMs: 30 * 60_000,
  pingIntervalMs: 25_000,
  pingTimeoutMs: 20_000,
};

/** What `createServer` wires: its injected parts and the HTTP-facing settings. */
export interface ServerParts {
  /** Where matches and events are kept. Closed by the server's `close()`. */
  store: Stores;
  /** The fan-out between instances (Socket.IO adapter and resync moments). Closed after the stores. */
  bus: Bus;
  /** Time for creation and step times, event timestamps, idle eviction and the websocket rate limit. Default the wall clock. */
  clock?: Clock;
  /** pino logger. */
  log: Logger;
  /** When set, `POST /api/matches` needs `Authorization: Bearer <adminToken>`. */
  adminToken?: string;
  /** Built web pages: one folder or several, searched in order. Default web/dist and overlay/dist of this repository. */
  staticDir?: string | readonly string[];
  /**
   * Allowed cross-origin callers of /api and Socket.IO (CORS; origins such as `https://studio.example`, or
   * `*`); unset = same origin only. A websocket handshake from another origin is refused (`origin-not-allowed`).
   */
  corsOrigin?: string | string[];
  /**
   * express 'trust proxy' for a server behind a load balancer: the client address (REST rate limits, websockets
   * per address) comes from X-Forwarded-For and the URLs it returns use X-Forwarded-Proto. true, a hop count, or addresses /
   * subnets ('loopback, 10.0.0.0/8'). Default off (direct exposure).
   */
  trustProxy?: boolean | number | string;
  limits?: Partial<Limits>;
  /** Retry and timeout settings of the webhooks' deliveries (default: first retry after 1 s, doubling, 8 tries, 5 s timeout). */
  webhooks?: WebhookSettings;
  /**
   * On close, how long (ms) clients get to finish the websocket close handshake before their connections are
   * destroyed (a client that never answers must not hold the shutdown). Default 3000.
   */
  closeTimeoutMs?: number;
}

export interface RunningServer {
  /** Base URL, e.g. http://127.0.0.1:3000 */
  url: string;
  port: number;
  /**
   * Stop accepting, let in-flight records finish and ack, disconnect clients (connections still open after
   * `closeTimeoutMs` are destroyed), close the stores and the bus. Resolves once everything is closed.
   */
  close(): Promise<void>;
}

/** A wired server, not yet listening. */
export interface WiredServer {
  /** The services (for a caller that also wants them without sockets, e.g. a test). */
  readonly matches: MatchService;
  readonly events: EventService;
  /**
   * Listen on `port` (0 = a random free one) and `host` (default 127.0.0.1).
   * @throws when the port is taken (the stores and the bus are closed then: nothing stays open).
   */
  listen(port: number, host?: string): Promise<RunningServer>;
}

const REPO_ROOT = fileURLToPath(new URL('..', import.meta.url));

/** Wire a match server from its parts. Nothing is connected or opened here; `listen` starts it. */
export function createServer(parts: ServerParts): WiredServer {
  const { store, bus, log } = parts;
  const clock = parts.clock ?? systemClock;
  const limits: Limits = { ...DEFAULT_LIMITS, ...parts.limits };
  const origins = new OriginPolicy(parts.corsOrigin);

  // Damage found and writes the store refused: logged as they happen, reported by /healthz.
  const health = store.health ?? new StoreHealth((what, detail) => log.warn(detail, what));

  const app = express();
  const httpServer = createHttpServer(app);
  if (parts.trustProxy === undefined || parts.trustProxy === false) {
    // Behind a proxy every connection comes from the proxy: it caps its own clients.
    let lastWarned = 0;
    capConnections(httpServer, Math.max(limits.connectionsPerAddress, limits.socketsPerAddress + 56), (address) => {
      if (Date.now() - lastWarned < 10_000) return; // at most one line per 10 s
      lastWarned = Date.now();
      log.warn({ address, limit: limits.connectionsPerAddress }, 'refused connections over the per-address cap');
    });
  }
  const connections = trackConnections(httpServer);
  // Socket.IO's own `cors` option would only cover HTTP long-polling, which is off: the gate checks Origin.
  const io: IoServer = new Server<ClientToServerEvents, ServerToClientEvents>(httpServer, {
    transports: ['websocket'],
    serveClient: false,
    maxHttpBufferSize: limits.maxFrameBytes,
    pingInterval: limits.pingIntervalMs,
    pingTimeout: limits.pingTimeoutMs,
    // A match's whole snapshot, asked for by many connections, is serialised once per version.
    parser: sharedReplyParser,
  });
  const gate = new ConnectionGate(app, limits, origins);
  gate.attach(io);
  io.engine.on('connection', releaseUpgradeRequest);
  io.engine.on('connection', (conn: { on(event: 'packetCreate', f: typeof preEncodeSharedAck): unknown }) => conn.on('packetCreate', preEncodeSharedAck));

  const fanout = new ViewerFanout(io, log);
  const { matches, events, shotClocks, draws, results, webhooks, reactions } = wireServices({
    store,
    clock,
    log,
    health,
    webhooks: parts.webhooks,
    pushes: { match: (p) => fanout.matchPushes(p), shotClock: (p) => fanout.shotClockPush(p), draw: (p) => fanout.drawPush(p), ...fanout.eventPushes },
  });

  app.disable('x-powered-by');
  if (parts.trustProxy !== undefined && parts.trustProxy !== false) app.set('trust proxy', parts.trustProxy);
  app.use(
    helmet({
      contentSecurityPolicy: {
        directives: {
          'connect-src': ["'self'", 'ws:', 'wss:'],
          // Pages are often opened over plain http on a LAN (tablet at the table, OBS): never upgrade.
          'upgrade-insecure-requests': null,
        },
      },
      strictTransportSecurity: false,
    }),
  );
  /** The address the server listens on (`listen`): `GET /api/lan` offers LAN addresses only when they reach it. */
  let listenHost: string | undefined;
  app.get('/healthz', healthz({ bus, health, storeKind: store.matches.kind }));
  if (origins.configured) app.use('/api', cors({ origin: (origin, ok) => ok(null, origins.listed(origin)) }));
  app.use(
    '/api',
    apiRouter({
      listenHost: () => listenHost,
      matches,
      events,
      shotClocks,
      draws,
      results,
      webhooks,
      log,
      adminToken: parts.adminToken,
      requestsPerMinute: limits.requestsPerMinute,
      matchesPerHour: limits.matchesPerHour,
      bodyLimitBytes: limits.bodyLimitBytes,
      assistant: new AssistantService({ matches, events, clock }),
    }),
  );
  app.use(staticRouter(parts.staticDir ?? [resolve(REPO_ROOT, 'web/dist'), resolve(REPO_ROOT, 'overlay/dist')]));

  const stopSweep = attachProtocol(
    io,
    matches,
    log,
    limits,
    [...tournamentHandlers(events, limits), ...drawHandlers(draws, events, limits), ...shotClockHandlers(shotClocks, clock)],
    clock,
  );
  const adapter = bus.adapter(fanout.resyncHooks({ matches, events }));
  if (adapter) io.adapter(adapter as never);

  const sweep = new IdleSweep({ matches, idleMs: limits.idleMatchMs, isViewed: (id) => fanout.isViewed(id) });
  const closeParts = async () => {
    stopSweep();
    await webhooks.close();
    await store.close();
    await bus.close();
  };

  async function listen(port: number, host = '127.0.0.1'): Promise<RunningServer> {
    listenHost = host;
    try {
      await new Promise<void>((ok, fail) => {
        httpServer.once('error', fail);
        httpServer.listen(port, host, () => {
          httpServer.off('error', fail);
          ok();
        });
      });
    } catch (err) {
      // The port is taken: leave nothing open behind.
      fanout.close();
      await closeParts();
      throw err;
    }
    sweep.start();
    const address = httpServer.address();
    const bound = typeof address === 'object' && address ? address.port : port;
    const shown = host !== '0.0.0.0' && host !== '::' ? host : '127.0.0.1';
    const url = `http://${shown.includes(':') ? `[${shown}]` : shown}:${bound}`;
    log.info({ url, store: store.matches.kind }, 'cuecast server listening');

    let closing: Promise<void> | null = null;
    const close = () =>
      shutdown({
        http: httpServer,
        connections,
        closeClients: () => io.close(),
        stopTimers: () => {
          sweep.stop();
          fanout.close();
        },
        drain: async () => {
          await matches.drain();
          await events.drain();
        },
        settled: () => reactions.settled(),
        closeParts,
        closeTimeoutMs: parts.closeTimeoutMs ?? 3000,
        log,
      });
    return { url, port: bound, close: () => (closing ??= close()) };
  }

  return { matches, events, listen };
}
