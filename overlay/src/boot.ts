/**
 * How an OBS overlay page starts (`/overlay/<id>` and the table overlay): the URL parameters, animations on or
 * off, the document language, the live client, then its language's strings. The client connects first, so
 * the socket handshakes while the strings load — and while the optional parts the URL asks for are fetched
 * (parts.ts; nothing waits for them).
 */
import type { Lang } from '../../web/src/lib/i18n';
import { setMotion } from './motion';
import { type OverlayParams, parseOverlayParams } from './params';
import { preloadParts } from './parts';

/**
 * Boot an overlay page: parse `location.search`, connect (`open()`: `createScorebugClient` for the one-match
 * overlay, whose bundle then carries no statistics code; `createClient` for the table overlay, whose summary
 * card needs them), load its strings (`load(lang)`), then `start(client, params)` (mount the page). When the strings cannot be fetched (the server went away between
 * the page and its chunk; browsers remember a failed module import, so asking again is useless) the page
 * loads again in 5 s — meanwhile nothing is on air (transparent) — and the returned promise rejects.
 */
export function bootOverlay<C>(load: (lang: Lang) => Promise<void>, open: () => C, start: (client: C, params: OverlayParams) => void): Promise<void> {
  const params = parseOverlayParams(location.search);
  setMotion(params.anim);
  document.documentElement.lang = params.lang;
  const client = open();
  preloadParts(params);
  return load(params.lang).then(
    () => start(client, params),
    () => {
      setTimeout(() => location.reload(), 5000);
      throw new Error(`overlay: the ${params.lang} strings could not be loaded; reloading in 5 s`);
    },
  );
}
