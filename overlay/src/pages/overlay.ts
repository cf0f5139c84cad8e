/**
 * `/overlay/<matchId>` — the OBS browser-source scorebug, a Svelte 5 component tree (overlay/Overlay.svelte)
 * fed by the one live client. Parameters: see overlay/params.ts.
 * Budget: 32 KB gzip of JavaScript in total with the Svelte runtime and socket.io-client, the page's one
 * language table included (`npm run bench:pages` prints it; tests/pages/overlay-budget.test.ts holds a ceiling);
 * no zod or shared runtime.
 */
import { mount } from 'svelte';
import '../styles/overlay.css';
import { createScorebugClient } from '../lib/client';
import { matchIdFromLocation } from '../lib/live-route';
import { loadAirStrings } from '../overlay/air-strings';
import { setMotion } from '../overlay/motion';
import Overlay from '../overlay/Overlay.svelte';
import { parseOverlayParams } from '../overlay/params';

const params = parseOverlayParams(location.search);
setMotion(params.anim);
document.documentElement.lang = params.lang;
// Connect first: the socket handshakes while the language table loads.
const client = createScorebugClient();
try {
  await loadAirStrings(params.lang);
} catch {
  // The server went away between the page and its language chunk. Browsers remember a failed module import,
  // so asking again is useless: load the page again in a few seconds (on air meanwhile: nothing, transparent).
  setTimeout(() => location.reload(), 5000);
  throw new Error(`overlay: the ${params.lang} strings could not be loaded; reloading in 5 s`);
}
mount(Overlay, { target: document.getElementById('app')!, props: { client, matchId: matchIdFromLocation(), params } });
