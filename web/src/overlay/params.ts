/**
 * OBS overlay URL parameters, parsed once at boot (OBS reloads the source when its URL changes).
 *
 * | param   | values                                   | default |
 * |---------|------------------------------------------|---------|
 * | layout  | `bar` (bottom bar), `corner` (compact bug)| bar     |
 * | theme   | `dark`, `light`                           | dark    |
 * | bg, fg, accent, a, b | hex colours (`ff8800`): panel, text, accent, player A, player B | theme's |
 * | lang    | `en`, `ja`, `zh-TW`                        | en      |
 * | scale   | 0.5–2, size of the graphics on the canvas  | 1       |
 * | side    | `A` or `B`: the player shown left (bar) / on top (corner) | A |
 * | corner  | `tl`, `tr`, `bl`, `br`: where the corner bug sits | tl |
 * | hide    | comma list of: target, turn, run, highrun, fouls, rack, balls, caption, situation, info, moments | none |
 * | caption | seconds a caption stays on air, 0–600; `0` keeps it until the next one | 8 |
 * | moment  | seconds a moment (rack won, re-rack, new high run, match won) stays, 1–60 | 6 |
 * | safe=1  | draw the 90% action-safe and 80% title-safe guides | off |
 * | debug=1 | connection chip (status, version)          | off     |
 * | anim=0  | no animations                              | on      |
 *
 * The table overlay (`/overlay/table/…`) takes every one of these, over the event's theme preset, plus
 * `cards=0` (no intro or summary cards), which its page script reads (pages/overlay-table.ts).
 */
import { hexColour, numberParam } from '../lib/live-route';
import { type Lang, pickLang } from '../lib/i18n';

export type Layout = 'bar' | 'corner';
export type Corner = 'tl' | 'tr' | 'bl' | 'br';
export const HIDEABLE = ['target', 'turn', 'run', 'highrun', 'fouls', 'rack', 'balls', 'caption', 'situation', 'info', 'moments'] as const;
export type Hideable = (typeof HIDEABLE)[number];

export interface OverlayParams {
  layout: Layout;
  theme: 'dark' | 'light';
  colours: { bg: string | null; fg: string | null; accent: string | null; a: string | null; b: string | null };
  lang: Lang;
  scale: number;
  /** Player shown on the left / on top. */
  first: 'A' | 'B';
  corner: Corner;
  hide: Set<Hideable>;
  /** Seconds a caption stays on air; 0 = until the next one. A pending choice stays until it is made. */
  captionSeconds: number;
  /** Seconds a moment graphic stays before the bar returns. */
  momentSeconds: number;
  safe: boolean;
  debug: boolean;
  anim: boolean;
}

/** Parse the overlay's query string; unknown or malformed values fall back to the defaults. */
export function parseOverlayParams(search: string): OverlayParams {
  const q = new URLSearchParams(search);
  const hide = new Set<Hideable>();
  for (const h of (q.get('hide') ?? '').split(',')) {
    const k = h.trim().toLowerCase() as Hideable;
    if ((HIDEABLE as readonly string[]).includes(k)) hide.add(k);
  }
  const corner = q.get('corner');
  return {
    layout: q.get('layout') === 'corner' ? 'corner' : 'bar',
    theme: q.get('theme') === 'light' ? 'light' : 'dark',
    colours: {
      bg: hexColour(q.get('bg')),
      fg: hexColour(q.get('fg')),
      accent: hexColour(q.get('accent')),
      a: hexColour(q.get('a')),
      b: hexColour(q.get('b')),
    },
    lang: pickLang(q.get('lang')),
    scale: numberParam(q.get('scale'), 1, 0.5, 2),
    first: (q.get('side') ?? '').toUpperCase() === 'B' ? 'B' : 'A',
    corner: corner === 'tr' || corner === 'bl' || corner === 'br' ? corner : 'tl',
    hide,
    captionSeconds: numberParam(q.get('caption'), 8, 0, 600),
    momentSeconds: numberParam(q.get('moment'), 6, 1, 60),
    safe: q.get('safe') === '1',
    debug: q.get('debug') === '1',
    anim: q.get('anim') !== '0',
  };
}
