/**
 * Register the scorer console's service worker (`/scorer-sw.js`, built by web/scorer-worker-plugin.ts with
 * Workbox) for the scope `/scorer/`: it holds this build's console page and assets, so a console reloaded while
 * the server is unreachable opens with its last known table and its queue instead of the browser's error page.
 * The scope keeps every other page (launcher, dashboard, spectator pages, the OBS overlays) out of its reach.
 *
 * Best effort: without service workers (an insecure origin other than localhost, a browser that has none) or
 * without a build (no worker script), the console works as before, only not from a reload while offline.
 */

/** Where the worker script is served and the pages it controls. */
export const SCORER_WORKER = { url: '/scorer-sw.js', scope: '/scorer/' } as const;

/** The part of `navigator` this needs (injected for tests). */
export interface WorkerHost {
  serviceWorker?: { register(url: string, options: { scope: string }): Promise<unknown> };
}

/**
 * Register the worker (call it once the page has loaded, so its precaching does not compete with the console's
 * own first load). Resolves true when registered, false when the browser has no service workers or refused it
 * (the reason is logged to the console, nothing else changes).
 */
export async function registerScorerWorker(host: WorkerHost = navigator): Promise<boolean> {
  if (!host.serviceWorker) return false;
  try {
    await host.serviceWorker.register(SCORER_WORKER.url, { scope: SCORER_WORKER.scope });
    return true;
  } catch (err) {
    console.warn('cuecast: the scorer console cannot open offline (service worker not registered):', err);
    return false;
  }
}
