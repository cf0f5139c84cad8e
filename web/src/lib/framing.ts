/**
 * Framing (issue 29): where the scorebug sits on the 1920×1080 canvas, so it can be moved off the table's
 * pockets. Pure: from the overlay's parameters only; the overlay's Scorebug.svelte applies the result as inline
 * position, and the framing helper (FramingHelper.svelte, on the launcher and the organiser page) uses the same box
 * and clamp.
 *
 * - `x`, `y`: the scorebug's top-left corner in 1080p px (each on its own; the other keeps its default);
 * - `pos=top|bottom` with `inset` (px from that frame edge, default 54: the action-safe margin): the bar's or
 *   the corner bug's vertical side (for the corner bug it overrides the `corner`'s t/b letter);
 * - defaults: the bar centred at the bottom of the action-safe area; the corner bug in its corner.
 *
 * Whatever is asked, the scorebug's box (at its size and scale, with the sponsor slot beside it) is kept inside
 * the frame: a value that would put it outside is clamped and noted (`params.unknown`, which debug=1 prints).
 * The caption and moments go on the side of the scorebug that faces the middle of the frame (above a scorebug
 * in the lower half, below one in the upper half), so they stay inside the frame too.
 */

/** The designs' boxes at scale 1 (styles/overlay.css): the bar's two rows, the corner bug's three; their largest scale. */
export const BOX = { bar: { w: 1200, h: 96, max: 1.44 }, corner: { w: 520, h: 138, max: 2.5 } } as const;
const FRAME = { w: 1920, h: 1080 };
/** Default margin from the frame's edges: the 90 % action-safe area (96 px left/right, 54 px top/bottom). */
export const SAFE = { x: 96, y: 54 };

/** What the framing parameters asked for (params.ts); null: not given. */
export interface FramingAsk {
  x: number | null;
  y: number | null;
  pos: 'top' | 'bottom' | null;
  inset: number;
}

/** Where the scorebug goes: its top-left corner (1080p px), its scaled box, and which way its caption goes. */
export interface Placement {
  left: number;
  top: number;
  w: number;
  h: number;
  /** The caption and moments below the scorebug (it sits in the upper half), else above. */
  linesBelow: boolean;
  /** The box's middle is right of the frame's: a caption wider than the box grows to the left. */
  rightHalf: boolean;
  /** The sponsor slot on the scorebug's left (it sits in the right part of the frame), else on its right. */
  slotLeft: boolean;
}

/** The scorebug's scale for a layout and its size factor times `scale` (overlay.css `--k`, capped per layout). */
export function boxScale(layout: 'bar' | 'corner', k: number): number {
  return Math.min(k, BOX[layout].max);
}

/**
 * The scorebug's place for `layout`/`corner`, `k` (its size factor times `scale`) and the framing asked; `slotW`: the sponsor slot's
 * width with its gap beside the scorebug, in the scorebug's px (0: none). `clamped` receives a note per value
 * that had to be moved to keep the box inside the frame.
 */
export function placement(
  p: { layout: 'bar' | 'corner'; corner: 'tl' | 'tr' | 'bl' | 'br'; k: number },
  ask: FramingAsk,
  slotW = 0,
  clamped: (note: string) => void = () => {},
): Placement {
  const k = boxScale(p.layout, p.k);
  const w = BOX[p.layout].w * k;
  const h = BOX[p.layout].h * k;
  const slot = slotW * k;
  const bottomSide = ask.pos ? ask.pos === 'bottom' : p.layout === 'bar' || p.corner[0] === 'b';
  let top = bottomSide ? FRAME.h - ask.inset - h : ask.inset;
  let left = p.layout === 'bar' ? (FRAME.w - w) / 2 : p.corner[1] === 'l' ? SAFE.x : FRAME.w - SAFE.x - w;
  if (ask.x !== null) left = ask.x;
  if (ask.y !== null) top = ask.y;
  const rightHalf = left + w / 2 > FRAME.w / 2;
  const slotLeft = rightHalf && slot > 0;
  const minLeft = slotLeft ? slot : 0;
  const maxLeft = FRAME.w - w - (slotLeft ? 0 : slot);
  const fit = (v: number, lo: number, hi: number, name: string, asked: number | null) => {
    const c = Math.round(Math.min(Math.max(v, lo), Math.max(lo, hi)));
    if (Math.abs(c - Math.round(v)) > 0 && asked !== null) clamped(`${name}=${asked} (→${c})`);
    return c;
  };
  left = fit(left, minLeft, maxLeft, 'x', ask.x);
  top = fit(top, 0, FRAME.h - h, ask.y !== null ? 'y' : 'inset', ask.y ?? (ask.pos || ask.inset !== SAFE.y ? ask.inset : null));
  return { left, top, w, h, linesBelow: top + h / 2 < FRAME.h / 2, rightHalf: left + w / 2 > FRAME.w / 2, slotLeft };
}
