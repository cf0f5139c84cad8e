/**
 * Canvas probes for names.ts, in the browser (the OBS overlays, and the pages that fit names with FitText): text
 * width at a size (for fitting) and whether any installed font can draw a character. A character no font has is drawn as the same "missing glyph" as a code point no
 * font ever maps (U+10FFFD, private use), so equal pixels and width mean "cannot draw". Results are cached;
 * nothing runs on a timer.
 */
let ctx: CanvasRenderingContext2D | null | undefined;
/** The page's font stack, as its body has it (the overlay's: overlay/src/styles/overlay.css; the stage and the names inherit it). */
let stack: string | undefined;
const font = () => (stack ??= getComputedStyle(document.body).fontFamily);
const SIZE = 48;

function context(): CanvasRenderingContext2D | null {
  if (ctx === undefined) {
    const c = document.createElement('canvas');
    c.width = SIZE * 2;
    c.height = SIZE * 2;
    ctx = c.getContext('2d', { willReadFrequently: true });
  }
  return ctx;
}

/** Width in CSS px of `text` in the overlay's font at `px` and `weight`. */
export function measureText(text: string, px: number, weight = 700): number {
  const c = context();
  if (!c) return 0;
  c.font = `${weight} ${px}px ${font()}`;
  return c.measureText(text).width;
}

function fingerprint(c: CanvasRenderingContext2D, ch: string): string {
  c.clearRect(0, 0, SIZE * 2, SIZE * 2);
  c.fillText(ch, 4, 4);
  const data = c.getImageData(0, 0, SIZE * 2, SIZE * 2).data;
  let h = 0;
  for (let i = 3; i < data.length; i += 4) h = (Math.imul(h, 31) + data[i]!) | 0;
  return `${c.measureText(ch).width}:${h}`;
}

const known = new Map<string, boolean>();
let missing: string | null = null;

/** True when an installed font draws `ch` (one code point); false when it would show as an empty box. */
export function canDraw(ch: string): boolean {
  const hit = known.get(ch);
  if (hit !== undefined) return hit;
  const c = context();
  if (!c) return true;
  c.font = `${SIZE}px ${font()}`;
  c.textBaseline = 'top';
  c.fillStyle = '#000';
  missing ??= fingerprint(c, '\u{10FFFD}');
  const ok = fingerprint(c, ch) !== missing;
  known.set(ch, ok);
  return ok;
}

/**
 * Svelte action: call `onWidth` with the node's layout width (CSS px, unaffected by the stage's scale) now and
 * whenever it changes (a ResizeObserver: nothing polled). Lighter than bind:clientWidth for the overlay budget.
 */
export function width(node: HTMLElement, onWidth: (w: number) => void): { destroy(): void } {
  onWidth(node.clientWidth);
  const ro = new ResizeObserver(() => onWidth(node.clientWidth));
  ro.observe(node);
  return { destroy: () => ro.disconnect() };
}
