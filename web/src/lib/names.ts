/**
 * Player names on air and on the pages (the OBS overlays; the score line of the spectator page and dashboard):
 * the font stack, dropping what the machine cannot draw, and fitting a name to its box.
 *
 * Fonts (the stack is in overlay/src/styles/overlay.css, on the page's body; canvas.ts measures with it): Latin first, then
 * the CJK families OBS machines commonly have (Windows, macOS, Noto on Linux), then the colour-emoji families,
 * then the generic sans-serif. A character no installed font can draw would show as an
 * empty box ("tofu"); the overlay drops it instead (decided in issue 10: stripped, not a fallback glyph, because a
 * placeholder glyph in a player's name reads as part of the name). A name left empty falls back to
 * "Player A" / "Player B" (model.ts `displayNames`), so the scorebug never shows a box or a blank.
 *
 * Fitting: the full name at the largest size from `maxPx` down to the floor `minPx` at which it fits; else the
 * player's short name, then an automatic short form (family name), likewise; never an ellipsis inside a word.
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

/** Lower-case name particles kept with the family name ("van der Berg", "de la Cruz"). */
const PARTICLES = /^(van|von|der|den|de|del|della|di|da|dos|du|la|le|ter|ten|bin|al|el)$/;
/** Han, kana, hangul: a name in these scripts is short already and is never abbreviated (a CJK name whole). */
const CJK = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]/u;

/**
 * The forms of a name a slot may print, best first, without repeats or empties (issue 17): the full name, the
 * player's short name (set-up `shortNames`), then for a Latin-script name of several words the given name's
 * initial with the family name ("M. Holloway-Brennan"), the family name alone ("Holloway-Brennan"; a particle
 * stays with it: "van der Berg"), and last its last word without the particles ("Berg"). A CJK name (or a single word) has no automatic form: it is kept whole.
 */
export function nameForms(full: string, short = ''): string[] {
  const forms = [full.trim(), short.trim()];
  const words = full.trim().split(/\s+/);
  if (words.length > 1 && !CJK.test(full)) {
    let k = words.length - 1;
    while (k > 1 && PARTICLES.test(words[k - 1]!)) k--;
    const family = words.slice(k).join(' ');
    const initial = graphemes(words[0]!)[0];
    if (initial && /\p{L}/u.test(initial)) forms.push(`${initial}. ${family}`);
    forms.push(family, words[words.length - 1]!);
  }
  return forms.filter((f, i) => f !== '' && forms.indexOf(f) === i);
}

export interface FittedName {
  text: string;
  /** Font size in CSS px. */
  px: number;
  /** Index in the forms given of the one printed (0: the full name). */
  form: number;
  /** The size the first form would take alone in the slot, floor ignored (a card sets both names at the smaller). */
  natural: number;
}

/**
 * Fit a name into `width` px (issue 17): the first of `forms` (names.ts {@link nameForms}, best first) that fits
 * at a whole size in [minPx, maxPx], at the largest such size; when none does, the last (shortest) form at the
 * size that fits, below the floor — a name is never cut inside a word or ended with an ellipsis. Text width is
 * taken as proportional to the font size. `width` 0 (not laid out yet): the first form at `maxPx`.
 */
export function fitName(forms: string[], width: number, measure: (text: string, px: number) => number, maxPx: number, minPx: number): FittedName {
  const size = (text: string) => {
    const w = measure(text, maxPx);
    return w <= width ? maxPx : Math.floor((maxPx * width) / w);
  };
  const natural = width > 0 && forms[0] ? size(forms[0]) : maxPx;
  if (width <= 0 || !forms.length) return { text: forms[0] ?? '', px: maxPx, form: 0, natural };
  for (let i = 0; i < forms.length; i++) {
    let px = size(forms[i]!);
    while (px >= minPx && measure(forms[i]!, px) > width) px--;
    if (px >= minPx) return { text: forms[i]!, px, form: i, natural };
  }
  const last = forms.length - 1;
  let px = Math.max(1, size(forms[last]!));
  while (px > 1 && measure(forms[last]!, px) > width) px--;
  return { text: forms[last]!, px, form: last, natural };
}

/** Longest name the venue screens print whole (issue 29): past it, the name ends in an ellipsis. */
export const WHOLE_NAME_MAX = 40;

/**
 * A full name as the venue screens print it (hall board, table screen, clock page; issue 29): the name itself
 * up to `max` user-perceived characters (graphemes), else its first `max - 1` and "…". Surrounding spaces trimmed.
 */
export function capName(name: string, max = WHOLE_NAME_MAX): string {
  const g = graphemes(name.trim());
  return g.length <= max
    ? g.join('')
    : `${g
        .slice(0, max - 1)
        .join('')
        .trimEnd()}…`;
}

/**
 * The largest whole font size in CSS px, at most `maxPx` (at least 1), at which `text` fits in `width` px
 * (`measure(text, px)` its width at a size; text width taken as proportional to the size, then checked).
 * `width` ≤ 0 (not laid out yet): `maxPx`.
 */
export function fitPx(text: string, width: number, measure: (text: string, px: number) => number, maxPx: number): number {
  if (width <= 0 || maxPx <= 1) return Math.max(1, maxPx);
  const w = measure(text, maxPx);
  if (w <= width) return maxPx;
  let px = Math.max(1, Math.floor((maxPx * width) / w));
  while (px > 1 && measure(text, px) > width) px--;
  return px;
}

/** The one form of each player's name a layout prints for a whole match, and the one size both are set at. */
export interface MatchNames {
  /** Per player, in the order given: the form printed everywhere on air (the bar or corner bug, moments, cards). */
  names: [string, string];
  /** Index of each printed form in its player's forms (0: the full name). */
  form: [number, number];
  /** The one font size both names are set at (px): the smaller of their two fits, so neither name is smaller. */
  px: number;
}

/**
 * Choose each player's name form once for a whole match (issue 29): for each, the first (longest) of its `forms`
 * (best first, {@link nameForms}) that fits `width` — the name's slot in its narrowest state (run box, flags,
 * extension markers, the widest score: measured once per layout) — at a size in [minPx, maxPx] ({@link fitName});
 * both names then take the smaller of the two sizes, in every language. Pure; `measure` as in {@link fitName}.
 * The hall board, table screen and clock page print full names and may use {@link fitName} directly.
 */
export function chooseMatchNames(
  forms: [string[], string[]],
  width: number,
  measure: (text: string, px: number) => number,
  maxPx: number,
  minPx: number,
): MatchNames {
  const a = fitName(forms[0], width, measure, maxPx, minPx);
  const b = fitName(forms[1], width, measure, maxPx, minPx);
  return { names: [a.text, b.text], form: [a.form, b.form], px: Math.min(a.px, b.px) };
}
