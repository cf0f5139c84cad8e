/**
 * The live client's connection over a socket port (./live-port.ts): its status, and the moments every versioned
 * subscription (./live-subscriptions.ts) asks the server again — each (re)connect (the acks of the old
 * connection never come) and the page becoming visible again (a sleeping tab may have missed pushes).
 * - While disconnected nothing is retried on a timer: socket.io's own reconnection back-off is the only clock,
 *   so an idle page runs no timers — except after the server refused the connection as full
 *   (`too-many-connections`, `server-full`), which socket.io does not retry: one timer then connects again after
 *   `retryRefusedMs` (5–15 s, random, so refused pages do not all come back at once). A page from a foreign
 *   origin (`origin-not-allowed`) stays offline.
 * - After the server closed the connection on purpose (a graceful shutdown before a restart), which socket.io
 *   does not retry either, it connects again once after 1 s; socket.io's back-off takes over from there.
 */
import type { ConnectionStatus, LivePort } from './live-port';

/** The part of the page's `document` that says when it is visible (a test double in Node). */
export interface PageDocument {
  readonly visibilityState: string;
  addEventListener(type: 'visibilitychange', listener: () => void): void;
  removeEventListener(type: 'visibilitychange', listener: () => void): void;
}

/** Options of a connection. */
export interface ConnectionOptions {
  /** Wait before connecting again after the server refused the connection as full (ms); default 5–15 s, random. */
  retryRefusedMs?: () => number;
  /** Whose visibility resyncs the subscriptions; default the page's `document` (none outside a browser). */
  document?: PageDocument;
}

/** An open connection: the port, its status, and the resync moments its subscriptions hook into. */
export interface Connection {
  readonly port: LivePort;
  readonly status: ConnectionStatus;
  /** True once `close()` ran: no more reconnects, retries or resyncs. */
  readonly closed: boolean;
  /** Hear every status change; returns the function that stops. */
  onStatus(cb: (s: ConnectionStatus) => void): () => void;
  /**
   * `cb(connectionLost)` runs on every (re)connect (true: acks of the old connection never come) and when the
   * page becomes visible again (false). Subscriptions ask the server again then.
   */
  onResync(cb: (connectionLost: boolean) => void): void;
  /**
   * Close for good: listeners removed, the socket closed, status 'offline'. Nothing is asked again after it (the
   * port stays disconnected; a subscription's pending back-off finds it so and does nothing).
   */
  close(): void;
}

/** Run the connection of `port`: status, resync moments, and the reconnects socket.io does not do by itself. */
export function openConnection(port: LivePort, opts: ConnectionOptions = {}): Connection {
  const statusListeners = new Set<(s: ConnectionStatus) => void>();
  const resyncListeners: ((connectionLost: boolean) => void)[] = [];
  let status: ConnectionStatus = 'connecting';
  let closed = false;

  const setStatus = (s: ConnectionStatus) => {
    if (s === status) return;
    status = s;
    for (const cb of [...statusListeners]) cb(s);
  };
  const resync = (connectionLost: boolean) => {
    for (const cb of [...resyncListeners]) cb(connectionLost);
  };

  port.on('connect', () => {
    // Budget probe: the first-state paint is measured from here (see tests/pages/overlay-budget.test.ts).
    if (performance.getEntriesByName('cuecast:connect').length === 0) performance.mark('cuecast:connect');
    setStatus('live');
    resync(true);
  });
  port.on('disconnect', (reason) => {
    setStatus('offline');
    if (reason === 'io server disconnect' && !closed) {
      setTimeout(() => {
        if (!closed && !port.connected) port.connect();
      }, 1000);
    }
  });
  const retryRefusedMs = opts.retryRefusedMs ?? (() => 5000 + Math.random() * 10_000);
  let refusedRetry: ReturnType<typeof setTimeout> | undefined;
  port.on('connect_error', (err) => {
    setStatus('offline');
    const code = err.data?.code;
    if ((code === 'too-many-connections' || code === 'server-full') && !closed && refusedRetry === undefined) {
      refusedRetry = setTimeout(() => {
        refusedRetry = undefined;
        if (!closed && !port.connected && !port.active) port.connect();
      }, retryRefusedMs());
    }
  });

  const doc = opts.document ?? (typeof document === 'undefined' ? null : document);
  const onVisibility = () => {
    if (doc?.visibilityState === 'visible') resync(false);
  };
  doc?.addEventListener('visibilitychange', onVisibility);

  return {
    port,
    get status() {
      return status;
    },
    get closed() {
      return closed;
    },
    onStatus(cb) {
      statusListeners.add(cb);
      return () => statusListeners.delete(cb);
    },
    onResync(cb) {
      resyncListeners.push(cb);
    },
    close() {
      if (closed) return;
      closed = true;
      clearTimeout(refusedRetry);
      doc?.removeEventListener('visibilitychange', onVisibility);
      port.removeAllListeners();
      port.disconnect();
      setStatus('offline');
    },
  };
}
