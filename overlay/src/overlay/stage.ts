/**
 * The OBS overlay's stage: a 1920×1080 design canvas scaled uniformly (and centred) to the browser-source
 * size on load and on `resize` — no timers. Applies theme and colour parameters, draws the safe-area guides
 * (safe=1) and the connection chip (debug=1; without it nothing about the connection is ever shown), and
 * feeds the scorebug from the live client. While disconnected the last good state simply stays.
 */
import type { LiveClient } from '../lib/client';
import { t } from '../lib/i18n';
import { overlayView } from './model';
import type { OverlayParams } from './params';
import { mountScorebug } from './scorebug';

export const DESIGN_WIDTH = 1920;
export const DESIGN_HEIGHT = 1080;

/** Mount the overlay into `host` and start following `matchId`. Returns a function that stops it. */
export function startOverlay(host: HTMLElement, client: LiveClient, matchId: string | null, params: OverlayParams): () => void {
  const stage = document.createElement('div');
  stage.className = `stage theme-${params.theme}${params.anim ? '' : ' noanim'}`;
  stage.dataset.layout = params.layout;
  for (const k of ['bg', 'fg', 'accent', 'a', 'b'] as const) {
    const c = params.colours[k];
    if (c) stage.style.setProperty(`--${k}`, c);
  }
  if (params.safe) {
    for (const cls of ['guide action', 'guide title']) {
      const g = document.createElement('div');
      g.className = cls;
      stage.append(g);
    }
  }
  host.append(stage);

  const fit = () => {
    const w = window.innerWidth;
    const h = window.innerHeight;
    const s = Math.min(w / DESIGN_WIDTH, h / DESIGN_HEIGHT) || 1;
    stage.style.transform = `translate(${(w - DESIGN_WIDTH * s) / 2}px, ${(h - DESIGN_HEIGHT * s) / 2}px) scale(${s})`;
  };
  fit();
  window.addEventListener('resize', fit);

  const bug = mountScorebug(stage, params);
  let version = -1;
  let chip: HTMLElement | null = null;
  let error = '';
  const drawChip = () => {
    if (!chip) return;
    // Keep the chip clear of a corner bug sitting top-right or bottom-right.
    const left = params.layout === 'corner' && (params.corner === 'tr' || params.corner === 'br');
    chip.className = `chip chip-${client.status}${left ? ' chip-left' : ''}`;
    chip.textContent = `${t(params.lang, client.status)}${version >= 0 ? ` · v${version}` : ''}${error ? ` · ${error}` : ''}`;
  };
  if (params.debug) {
    chip = document.createElement('div');
    chip.dataset.f = 'debug';
    stage.append(chip);
    drawChip();
  }
  const offStatus = client.onStatus(drawChip);

  let painted = false;
  const offFeed = matchId
    ? client.watchScorebug(
        matchId,
        (f) => {
          version = f.version;
          error = '';
          bug.update(overlayView(f.state, params), f.version);
          drawChip();
          if (!painted) {
            painted = true;
            // Budget probe, once: one frame after the first state reached the DOM (not a loop).
            requestAnimationFrame(() => performance.mark('cuecast:first-state-painted'));
          }
        },
        (e) => {
          error = e.code;
          drawChip();
        },
      )
    : () => {};

  return () => {
    offFeed();
    offStatus();
    window.removeEventListener('resize', fit);
    stage.remove();
  };
}
