/**
 * Player names on air: the font stack, dropping what the machine cannot draw, and fitting a name to its box.
 *
 * Fonts (the stack is in styles/overlay.css, on the page's body; canvas.ts measures with it): Latin first, then
 * the CJK families OBS machines commonly have (Windows, macOS, Noto on Linux), then the colour-emoji families,
 * then the generic sans-serif. A character no installed font can draw would show as an
 * empty box ("tofu"); the overlay drops it instead (decided in issue 10: stripped, not a fallback glyph, because a
 * placeholder glyph in a player's name reads as part of the name). A name left empty falls back to
 * "Player A" / "Player B" (model.ts `displayNames`), so the scorebug never shows a box or a blank.
 *
 * Fitting: the largest size from `maxPx` down to `minPx` at which the name fits; below the floor the name is cut
 * at a word boundary with an ellipsis (a single over-long word is cut between characters).
 * The functions here are pure; the canvas probes that feed them are in canvas.ts.
 */

/** Zero-width joiner, variation selectors, keycap, emoji tag characters: drawn with the characters they modify. */
const JOINERS = /[\u200d\ufe00-\ufe0f\u20e3\u{e0020}-\u{e007f}]|\p{M}/u;
const PRINTABLE_ASCII = /^[\x20-\x7e]*$/;

/** Split into user-perceived characters (grapheme clusters), so an emoji sequence is kept or dropped whole. */
export function graphemes(text: string): string[] {
  if (typeof Intl !== 'undefined' && 'Segmenter' in Intl) {
    return Array.from(new Intl.Segmenter(undefined, { granularity: 'grapheme' }).segment(text), (s) => s.segment);
  }
  return Array.from(text);
}

/**
 * `text` without the characters `canDraw` says no installed font has (a cluster is kept only when every one of
 * its base code points can be drawn); spaces left doubled by a dropped character are collapsed.
 * Printable ASCII is always kept (every font stack draws it).
 */
export function drawableText(text: string, canDraw: (ch: string) => boolean): string {
  if (PRINTABLE_ASCII.test(text)) return text;
  let out = '';
  for (const g of graphemes(text)) {
    if (PRINTABLE_ASCII.test(g) || Array.from(g).every((c) => JOINERS.test(c) || /\s/.test(c) || canDraw(c))) out += g;
  }
  return out.replace(/\s+/g, ' ').trim();
}

export interface FittedName {
  text: string;
  /** Font size in CSS px. */
  px: number;
  /** The name was cut (the full name goes into the element's title). */
  cut: boolean;
}

/**
 * Fit `text` into `width` px: the largest whole size in [minPx, maxPx] at which `measure(text, px)` fits;
 * else, at `minPx`, the longest run of whole words that fits followed by "…", or (one word too long) the
 * longest run of characters. Text width is taken as proportional to the font size.
 */
export function fitName(text: string, width: number, measure: (text: string, px: number) => number, maxPx: number, minPx: number): FittedName {
  if (width <= 0) return { text, px: maxPx, cut: false };
  const full = measure(text, maxPx);
  if (full <= width) return { text, px: maxPx, cut: false };
  const px = Math.floor((maxPx * width) / full);
  if (px >= minPx && measure(text, px) <= width) return { text, px, cut: false };
  const fits = (s: string) => measure(s, minPx) <= width;
  const ellipsis = '\u2026';
  const words = text.split(/(?<=[\s\-\u2010\u00b7])/); // keep the separator with the word before it
  let best = '';
  for (let n = words.length - 1; n >= 1; n--) {
    const head = words.slice(0, n).join('').trimEnd();
    if (head && fits(head + ellipsis)) {
      best = head + ellipsis;
      break;
    }
  }
  if (!best) {
    const chars = graphemes(text);
    let lo = 0;
    let hi = chars.length;
    while (lo < hi) {
      const mid = Math.ceil((lo + hi) / 2);
      if (fits(chars.slice(0, mid).join('').trimEnd() + ellipsis)) lo = mid;
      else hi = mid - 1;
    }
    best = chars.slice(0, Math.max(1, lo)).join('').trimEnd() + ellipsis;
  }
  return { text: best, px: minPx, cut: true };
}
