/**
 * The overlay's stage: the 1920×1080 design canvas every graphic is laid out on (styles/overlay.css `.stage`),
 * scaled uniformly and centred in the browser source. One module for both OBS pages (`/overlay/<id>` and the
 * table overlay, whose cards sit on a stage of their own above the match's).
 */
import { inks } from './inks';
import type { OverlayParams } from './params';

const DESIGN_WIDTH = 1920;
const DESIGN_HEIGHT = 1080;

/**
 * Svelte action on a `.stage`: the colour parameters (`bg`, `fg`, `accent`, `a`, `b`) as CSS variables with
 * the inks that read on them (inks.ts, computed in script: every Chromium OBS embeds), and a transform that
 * fits the canvas to the window — on mount and on every `resize` (no timers).
 */
export function stage(node: HTMLElement, params: OverlayParams): { destroy(): void } {
  for (const k of ['bg', 'fg', 'accent', 'a', 'b'] as const) if (params.colours[k]) node.style.setProperty(`--${k}`, params.colours[k]);
  for (const [k, v] of Object.entries(inks(params.theme, params.colours))) node.style.setProperty(k, v);
  const fit = () => {
    const w = window.innerWidth;
    const h = window.innerHeight;
    const s = Math.min(w / DESIGN_WIDTH, h / DESIGN_HEIGHT) || 1;
    node.style.transform = `translate(${(w - DESIGN_WIDTH * s) / 2}px, ${(h - DESIGN_HEIGHT * s) / 2}px) scale(${s})`;
  };
  fit();
  window.addEventListener('resize', fit);
  return { destroy: () => window.removeEventListener('resize', fit) };
}
