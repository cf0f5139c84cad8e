/**
 * The OBS draw graphics of an event (issue 27), one page built alone (overlay/vite.draw.config.ts):
 * - `/overlay/draw/<eventId>`: the full-screen bracket for breaks (the rounds being played now, winners' side,
 *   losers' side and finals; the group tables for round robin);
 * - `/overlay/standings/<eventId>`: the standings lower third (`?group=B`: that group's table).
 * `?lang=en|ja|zh-TW`, `?theme=light`. Live: the draw's room (`drawClient`), no reload.
 */
import { mount } from 'svelte';
import '../styles/draw.css';
import { createClient } from '../../../web/src/lib/client';
import DrawOverlay from '../draw/DrawOverlay.svelte';
import { drawOverlayRoute } from '../draw/draw-route';
import { parseOverlayParams } from '../params';

const params = parseOverlayParams(location.search);
document.documentElement.lang = params.lang;
const route = drawOverlayRoute(location);
mount(DrawOverlay, {
  target: document.getElementById('app')!,
  props: { route, lang: params.lang, theme: params.theme, anim: params.anim, client: createClient() },
});
