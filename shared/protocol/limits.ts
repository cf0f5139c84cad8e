/**
 * The bounds of a match set-up, zod-free so the pages (the launcher's form) check the same numbers and
 * characters as the server's schemas (server/protocol/setup-schemas.ts) without bundling zod. Changing one changes both sides.
 */

/**
 * Characters a display text may not hold, because they would garble, break or reorder it on air, or make a feed
 * that carries it unreadable: control characters (Cc: every C0 control, tab, line feed and carriage return
 * included, DEL and the C1 controls), every text-direction control (the Unicode property Bidi_Control: LRM, RLM,
 * ALM, the embeddings, overrides and isolates), line and paragraph separators (Zl, Zp), lone surrogates (Cs:
 * not text at all; stored as UTF-8 they would come back as U+FFFD, so the name would change on reload) and the
 * 66 Unicode noncharacters (Noncharacter_Code_Point: U+FDD0–U+FDEF and the last two code points of every plane,
 * U+FFFE, U+FFFF … U+10FFFE, U+10FFFF; never for interchange). Together this covers every character XML 1.0
 * forbids (its `Char` production leaves out the C0 controls but tab, LF and CR, the surrogates, U+FFFE and
 * U+FFFF), so a stored name never breaks a feed (server/events/table-feed.ts).
 */
export const UNSAFE_TEXT = /[\p{Cc}\p{Bidi_Control}\p{Zl}\p{Zp}\p{Cs}\p{Noncharacter_Code_Point}]/u;

/**
 * Why `text` may not be a display text, naming its first unsafe character (`U+FFFE, a Unicode noncharacter`), or
 * null when it holds none (UNSAFE_TEXT). The schemas put it after the field's name.
 */
export function unsafeTextReason(text: string): string | null {
  const m = UNSAFE_TEXT.exec(text);
  if (!m) return null;
  const ch = m[0];
  const cp = ch.codePointAt(0)!;
  const u = `U+${cp.toString(16).toUpperCase().padStart(4, '0')}`;
  let what: string;
  if (/\p{Cs}/u.test(ch)) what = 'half of a character (a lone surrogate)';
  else if (/\p{Noncharacter_Code_Point}/u.test(ch)) what = 'a Unicode noncharacter';
  else if (/\p{Cc}/u.test(ch)) what = 'a control character';
  else if (/\p{Bidi_Control}/u.test(ch)) what = 'a text-direction control';
  else what = 'a line or paragraph separator';
  return `must not contain ${u}, ${what} (no control, text-direction, line-separator or noncharacter, nothing XML 1.0 forbids)`;
}
/**
 * A visible character: not a space, format character (zero-width space, joiner…), lone combining mark, or a
 * character fonts draw blank: the Hangul fillers (U+115F, U+1160, U+3164, U+FFA0), the Braille blank (U+2800),
 * the Khmer inherent vowels (U+17B4, U+17B5) and the musical-symbol formatting blanks (U+1D159, U+1D173–U+1D17A).
 */
export const VISIBLE_TEXT = /[^\s\p{Z}\p{Cf}\p{M}\u115f\u1160\u3164\uffa0\u2800\u17b4\u17b5\u{1d159}\u{1d173}-\u{1d17a}]/u;
/** Most combining marks one character keeps in a name (`withDrawableMarks`): enough for Thai, Indic and Tibetan stacks. */
export const MARKS_PER_CHARACTER = 3;

/**
 * A name with the combining marks fonts cannot draw taken out: NFC first (a letter and its accent become the one
 * precomposed letter every font has), then a mark with nothing to sit on (at the start, after a space, a control
 * or format character) is removed, and a character keeps at most MARKS_PER_CHARACTER marks (a stack of marks
 * piled on one letter, "Z̴̡̧̛̖", is cut to its first three). Everything else is kept as it was.
 */
export function withDrawableMarks(text: string): string {
  let out = '';
  let marks = 0;
  let base = false;
  for (const ch of text.normalize('NFC')) {
    if (MARK.test(ch)) {
      if (!base || marks >= MARKS_PER_CHARACTER) continue;
      marks++;
    } else {
      base = !NO_BASE.test(ch);
      marks = 0;
    }
    out += ch;
  }
  return out;
}
const MARK = /\p{M}/u;
/** Characters a combining mark cannot sit on. */
const NO_BASE = /[\s\p{Z}\p{C}]/u;

/** Longest player name (characters: code points, as zod counts them); the overlay fits it (shrink, then cut at a word). */
export const NAME_MAX = 60;
/** Longest short display name (characters: code points). */
export const SHORT_NAME_MAX = 16;
/** Highest target (points to win) of a player. */
export const TARGET_MAX = 10000;
/** A head start or a score in progress lies within ±SCORE_LIMIT (and, in Rotation, at 0 or above: `lowestScore`). */
export const SCORE_LIMIT = 10000;
/**
 * The lowest head start or score in progress a set-up may give: −SCORE_LIMIT in 14-1, where fouls cost points
 * (14-1 §09, S-13); 0 in Rotation, where no foul costs points (ROT §10, R-8), so no score goes below 0.
 */
export function lowestScore(discipline: '14-1' | 'rotation'): number {
  return discipline === 'rotation' ? 0 : -SCORE_LIMIT;
}
/** Object balls in a rack, numbered 1 to RACK_BALLS (14-1 §01, ROT §01): the most a table holds. */
export const RACK_BALLS = 15;
/**
 * The most one shot can score, by discipline: in 14-1 a point per ball pocketed (14-1 §07), so RACK_BALLS; in
 * Rotation each ball's number (ROT §04), so every ball of a rack, 1 + 2 + … + 15 = 120. A match's winner ends at
 * most this much less one past the race (the shot that reached it started below it).
 */
export function shotPointsMax(discipline: '14-1' | 'rotation'): number {
  return discipline === 'rotation' ? (RACK_BALLS * (RACK_BALLS + 1)) / 2 : RACK_BALLS;
}
/** Fewest balls a 14-1 table holds at rest (INV-4: a scoring shot that leaves 1 or 0 re-racks at once, S-16–S-18). */
export const STRAIGHT_BALLS_MIN = 2;
/** Most consecutive fouls a player stands on at rest (INV-3: the step that makes a third resolves it, S-14, R-9). */
export const STANDING_FOULS_MAX = 2;
/** Highest innings count, high run and rack number of a match picked up in progress. */
export const COUNT_MAX = 100000;
/** A match or event id the server accepts (it is also a file name in the embedded stores): 1–64 of A–Z, a–z, 0–9, _ and -. */
export const SAFE_ID = /^[A-Za-z0-9_-]{1,64}$/;
/** A table id (the URL's `<table>`): 1–32 lower-case letters, digits and hyphens, starting with a letter or digit. */
export const TABLE_ID = /^[a-z0-9][a-z0-9-]{0,31}$/;
