/**
 * What the browser says about the network, for the scorer console: `navigator.onLine`, the window's
 * 'online' / 'offline' events and the page becoming visible again. A dead network can leave a socket
 * looking connected for tens of seconds (until socket.io's ping times out); these signals let the console
 * say "offline" at once and retry the moment the network is back.
 */

/** A change the console reacts to: the network went away or came back, or the page became visible. */
export type NetworkEvent = 'online' | 'offline' | 'visible';

export interface NetworkSignals {
  /** False only when the browser knows it has no network (`navigator.onLine === false`). */
  online(): boolean;
  /** Subscribe to network and visibility changes; returns an unsubscribe function. */
  on(cb: (e: NetworkEvent) => void): () => void;
}

/** Signals for environments without a browser (tests, server-side): always online, never changes. */
export const ALWAYS_ONLINE: NetworkSignals = { online: () => true, on: () => () => {} };

/** The browser's signals (`window` / `document` injectable for tests). */
export function browserNetwork(win: Window = window, doc: Document = document): NetworkSignals {
  return {
    online: () => win.navigator.onLine !== false,
    on(cb) {
      const online = () => cb('online');
      const offline = () => cb('offline');
      const visible = () => {
        if (doc.visibilityState === 'visible') cb('visible');
      };
      win.addEventListener('online', online);
      win.addEventListener('offline', offline);
      doc.addEventListener('visibilitychange', visible);
      return () => {
        win.removeEventListener('online', online);
        win.removeEventListener('offline', offline);
        doc.removeEventListener('visibilitychange', visible);
      };
    },
  };
}
