/**
 * Where the table overlay's sponsor slot goes beside the scorebug (SponsorSlot.svelte), in the scorebug's own
 * design px (the slot scales with it): to the right of the bar; above the bar's right end when the bar is too
 * wide for a slot beside it inside the 90 % action-safe area (size `l`, large `scale`; the caption and moments
 * then keep left of it); beside the corner bug on the side away from the corner, shrunk when the bug is so large
 * that a full slot would leave the action-safe area. Pure: from the overlay's parameters only.
 */
import { SIZE_FACTOR, type OverlayParams } from '../params';

/** The slot at scale 1: a logo box the height of the bar's two rows, and its gap to the scorebug (px). */
export const SLOT = { w: 180, h: 96, gap: 12 } as const;
/** The slot above the bar's right end (px): narrower, so the centred caption (≤ 880) and moment (900) keep clear. */
export const SLOT_ABOVE = { w: 140, h: 64, gap: 10 } as const;

/** Half the action-safe width (1728 / 2) and the designs' widths and largest scales (styles/overlay.css). */
const SAFE_HALF = 864;
const BAR = { w: 1200, max: 1.44 };
const BUG = { w: 520, max: 2.5 };

export interface SlotPlacement {
  /** `beside` the bar or bug, or `above` the bar's right end. */
  where: 'beside' | 'above';
  /** The slot's box in the scorebug's px (before the scorebug's own scale). */
  w: number;
  h: number;
}

/** The sponsor slot's place and size for these overlay parameters (layout, size, scale). */
export function slotPlacement(params: Pick<OverlayParams, 'layout' | 'size' | 'scale'>): SlotPlacement {
  const k = SIZE_FACTOR[params.size] * params.scale;
  if (params.layout === 'bar') {
    const kb = Math.min(k, BAR.max);
    // Beside: the bar's half plus the gap and the slot, from the centre, inside the safe half.
    if ((BAR.w / 2 + SLOT.gap + SLOT.w) * kb <= SAFE_HALF) return { where: 'beside', w: SLOT.w, h: SLOT.h };
    return { where: 'above', w: SLOT_ABOVE.w, h: SLOT_ABOVE.h };
  }
  const kc = Math.min(k, BUG.max);
  const room = (2 * SAFE_HALF) / kc - BUG.w - SLOT.gap;
  const f = Math.min(1, room / SLOT.w);
  return { where: 'beside', w: Math.floor(SLOT.w * f), h: Math.floor(SLOT.h * f) };
}
