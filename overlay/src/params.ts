/**
 * OBS overlay URL parameters, parsed once at boot (OBS reloads the source when its URL changes).
 *
 * | param   | values                                   | default |
 * |---------|------------------------------------------|---------|
 * | layout  | `bar` (bottom bar), `corner` (compact bug)| bar     |
 * | theme   | `dark`, `light`                           | dark    |
 * | bg, fg, accent, a, b | hex colours (`ff8800`): panel, text, accent, player A, player B | theme's |
 * | lang    | `en`, `ja`, `zh-TW`                        | en      |
 * | size    | `s`, `m` (broadcast: a 64 px strip at 1080p), `l` (venue screens, phone-camera streams) | m |
 * | scale   | 0.5–2, size of the graphics on the canvas, on top of `size` | 1 |
 * | side    | `A` or `B`: the player shown left (bar) / on top (corner) | A |
 * | corner  | `tl`, `tr`, `bl`, `br`: where the corner bug sits | tl |
 * | hide    | comma list of: target, turn, run, highrun, fouls, rack, balls, caption, situation, info, moments | none |
 * | show    | comma list of: innings, average (per player, second row), balls (Rotation: the ball row), odds (OddsStrip.svelte) | none |
 * | captions| `notable` (fouls, re-racks, racks won, push outs, choices, a new high run), `all` (every step), `off` | notable |
 * | caption | seconds a caption stays on air, 0–600; `0` keeps it until the next one | 8 |
 * | moment  | seconds a moment (rack won, re-rack, new high run, match won) stays, 1–60 | 6 |
 * | safe=1  | draw the 90% action-safe and 80% title-safe guides | off |
 * | debug=1 | connection chip (status, version, parameter values not understood) | off |
 * | anim=0  | no animations                              | on      |
 * | clock=0 | no shot clock segment or extension markers (ClockSegment.svelte) | on |
 * | sponsors=0 | no sponsor slot beside the scorebug (the table overlay's; the event's sponsors' logos) | on |
 * | milestones | `auto`: the top new talking point pops beside the scorebug (Milestone.svelte), `off` | off |
 * | milestoneShots | steps between two milestone pop-ups at least, 2–100 (milestones.ts) | 8 |
 *
 * `show=odds`: what it takes (14-1 win chance and points needed; Rotation's points left against 61 and the match).
 * | x, y    | the scorebug's top-left corner in 1080p px (framing.ts; kept inside the frame) | layout's place |
 * | pos     | `top`, `bottom`: the scorebug's vertical side (the corner bug: overrides `corner`'s t/b) | layout's |
 * | inset   | px from that side's frame edge, 0–540 | 54 |
 * | summary | `lower` (a lower third), `full` (the full-screen summary card, for intermissions): the table overlay | lower |
 *
 * The table overlay (`/overlay/table/…`) takes every one of these, over the event's theme preset, plus
 * `cards=0` (no intro or summary cards), which its page script reads (pages/overlay-table.ts), and
 * `obsWon` / `obsIntro` (OBS scenes to switch to: table/obs-scenes.ts).
 */
import { hexColour, numberParam } from '../../web/src/lib/live-route';
import { type Lang, pickLang } from '../../web/src/lib/i18n';
import { MILESTONE_EVERY, MILESTONE_EVERY_RANGE } from './milestones';
import { placement } from '../../web/src/lib/framing';

export type Layout = 'bar' | 'corner';
export type Corner = 'tl' | 'tr' | 'bl' | 'br';
export const HIDEABLE = ['target', 'turn', 'run', 'highrun', 'fouls', 'rack', 'balls', 'caption', 'situation', 'info', 'moments'] as const;
export type Hideable = (typeof HIDEABLE)[number];
export const SHOWABLE = ['innings', 'average', 'balls', 'odds'] as const;
export type Showable = (typeof SHOWABLE)[number];
/** `size`: the scorebug's size class; `m` is the broadcast default (docs/streamers.md: each layout and size's box). */
export type Size = 's' | 'm' | 'l';
/** Factor of each size on the `m` design (CSS `--z`, overlay.css). */
export const SIZE_FACTOR: Record<Size, number> = { s: 0.8, m: 1, l: 1.5 };
/** `captions`: which steps get a caption line (onair.ts `notable`). */
export type CaptionMode = 'notable' | 'all' | 'off';

export interface OverlayParams {
  layout: Layout;
  theme: 'dark' | 'light';
  colours: { bg: string | null; fg: string | null; accent: string | null; a: string | null; b: string | null };
  lang: Lang;
  /** Size class (`size`), and the factor it puts on the design ({@link SIZE_FACTOR}). */
  size: Size;
  scale: number;
  /** Optional items of the second row (`show`). */
  show: Set<Showable>;
  /** Which steps are captioned (`captions`). */
  captions: CaptionMode;
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
  /** Show the match's shot clock (the segment and each player's extension markers); `clock=0`: never, nothing watched. */
  clock: boolean;
  /** Show the sponsor slot beside the scorebug when the overlay has sponsors (the table overlay); `sponsors=0`: never. */
  sponsors: boolean;
  /** `milestones=auto`: milestone pop-ups (Milestone.svelte); `off` (default): none. */
  milestones: 'auto' | 'off';
  /** Steps between two milestone pop-ups at least (`milestoneShots`, 2–100; default MILESTONE_EVERY). */
  milestoneShots: number;
  /** Framing (framing.ts): the scorebug's top-left corner asked for in 1080p px (`x`, `y`), `pos` and `inset`. */
  x: number | null;
  y: number | null;
  pos: 'top' | 'bottom' | null;
  inset: number;
  /** The table overlay's summary card: a lower third (default) or the full-screen card of an intermission (`summary=full`). */
  summary: 'lower' | 'full';
  /** Parameters given with a value the overlay does not know, as `name=value` (debug=1 names them); defaults used instead. */
  unknown: string[];
}

/** The comma list `v` split into known `names` (into `into`); an unknown entry is noted in `bad` as `key=entry`. */
function list<T extends string>(key: string, v: string | null, names: readonly T[], into: Set<T>, bad: string[]): Set<T> {
  for (const h of (v ?? '').split(',')) {
    const k = h.trim().toLowerCase();
    if (!k) continue;
    if ((names as readonly string[]).includes(k)) into.add(k as T);
    else bad.push(`${key}=${h.trim()}`);
  }
  return into;
}

/**
 * Parse the overlay's query string; unknown or malformed values fall back to the defaults and are listed in
 * `unknown` (`size=xl`, `show=foo`, `layout=wide`), which the debug chip prints.
 */
export function parseOverlayParams(search: string): OverlayParams {
  const q = new URLSearchParams(search);
  const unknown: string[] = [];
  /** The value of `key` when it is one of `values`; else `fallback` (an unknown value noted). */
  const pick = <T extends string>(key: string, values: readonly T[], fallback: T, norm: (v: string) => string = (v) => v.toLowerCase()): T => {
    const v = q.get(key);
    if (v === null || v === '') return fallback;
    const n = norm(v.trim());
    if ((values as readonly string[]).includes(n)) return n as T;
    unknown.push(`${key}=${v}`);
    return fallback;
  };
  /** A whole number of `key` within `range`, else `fallback` (a value out of range or not a number noted). */
  const wholeIn = (key: string, [lo, hi]: readonly [number, number], fallback: number): number => {
    const v = q.get(key);
    if (v === null || v === '') return fallback;
    const n = /^\d+$/.test(v.trim()) ? Number(v.trim()) : NaN;
    if (Number.isInteger(n) && n >= lo && n <= hi) return n;
    unknown.push(`${key}=${v}`);
    return fallback;
  };
  /** A number in [min, max] for `key`, or null when absent; a value that is no number or out of range is noted (and clamped). */
  const px = (key: string, min: number, max: number): number | null => {
    const v = q.get(key);
    if (v === null || v.trim() === '') return null;
    const n = Number(v);
    if (!Number.isFinite(n)) {
      unknown.push(`${key}=${v}`);
      return null;
    }
    if (n < min || n > max) unknown.push(`${key}=${v}`);
    return Math.min(max, Math.max(min, Math.round(n)));
  };
  const hide = list('hide', q.get('hide'), HIDEABLE, new Set<Hideable>(), unknown);
  const show = list('show', q.get('show'), SHOWABLE, new Set<Showable>(), unknown);
  const out: OverlayParams = {
    layout: pick('layout', ['bar', 'corner'], 'bar'),
    theme: pick('theme', ['dark', 'light'], 'dark'),
    colours: {
      bg: hexColour(q.get('bg')),
      fg: hexColour(q.get('fg')),
      accent: hexColour(q.get('accent')),
      a: hexColour(q.get('a')),
      b: hexColour(q.get('b')),
    },
    lang: pickLang(q.get('lang')),
    size: pick('size', ['s', 'm', 'l'], 'm'),
    scale: numberParam(q.get('scale'), 1, 0.5, 2),
    show,
    captions: pick('captions', ['notable', 'all', 'off'], 'notable'),
    first: pick('side', ['A', 'B'], 'A', (v) => v.toUpperCase()),
    corner: pick('corner', ['tl', 'tr', 'bl', 'br'], 'tl'),
    hide,
    captionSeconds: numberParam(q.get('caption'), 8, 0, 600),
    momentSeconds: numberParam(q.get('moment'), 6, 1, 60),
    safe: q.get('safe') === '1',
    debug: q.get('debug') === '1',
    anim: q.get('anim') !== '0',
    clock: q.get('clock') !== '0',
    sponsors: q.get('sponsors') !== '0',
    milestones: pick('milestones', ['auto', 'off'], 'off'),
    milestoneShots: wholeIn('milestoneShots', MILESTONE_EVERY_RANGE, MILESTONE_EVERY),
    x: px('x', 0, 1920),
    y: px('y', 0, 1080),
    pos: q.get('pos') ? pick<'top' | 'bottom'>('pos', ['top', 'bottom'], 'bottom') : null,
    inset: px('inset', 0, 540) ?? 54,
    summary: pick('summary', ['lower', 'full'], 'lower'),
    unknown,
  };
  // A framing that would put the scorebug outside the frame: clamped where it is drawn, noted here.
  placement({ layout: out.layout, corner: out.corner, k: SIZE_FACTOR[out.size] * out.scale }, out, 0, (n) => unknown.push(n));
  return out;
}
