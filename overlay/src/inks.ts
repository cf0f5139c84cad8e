/**
 * Inks that read (WCAG ≥ 4.5:1) on the producer's colours (`accent`, `bg`, `fg` from the URL or the event's
 * preset), computed in script from the colours given, so every engine OBS embeds gets them (Chromium 103 in
 * OBS 28–30 has no CSS relative colours; issue 17). Pure: colours in, CSS custom properties out; the stage
 * (stage-fit.ts) sets them.
 *
 * - text on the accent (race, caption, badges, titles): black or white, whichever reads (white below a WCAG
 *   luminance of 0.179, where both read alike);
 * - a text drawn in the accent on the theme's panel (a winner's score): the accent when it reads there, else
 *   white (dark theme) or black (light theme);
 * - a custom panel colour `bg`: the texts on it take its ink (an explicit `fg` is kept), the second row a shade
 *   of it away from the ink, a winner's score the text colour.
 */

/** WCAG relative luminance of `#rgb`, `#rrggbb` or `#rrggbbaa` (alpha ignored), 0–1. */
export function luminance(hex: string): number {
  let h = hex.replace('#', '');
  if (h.length === 3) h = [...h].map((c) => c + c).join('');
  const ch = [0, 2, 4].map((i) => {
    const s = parseInt(h.slice(i, i + 2), 16) / 255;
    return s <= 0.04045 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
  });
  return 0.2126 * ch[0]! + 0.7152 * ch[1]! + 0.0722 * ch[2]!;
}

/** WCAG contrast ratio of two colours, 1–21. */
export function contrast(a: string, b: string): number {
  const [x, y] = [luminance(a), luminance(b)].sort((p, q) => q - p);
  return (x! + 0.05) / (y! + 0.05);
}

/** Black or white, whichever reads on `hex`. */
export const inkOn = (hex: string): string => (luminance(hex) < 0.179 ? '#ffffff' : '#000000');

/** `a` mixed with `b`, `share` of `a` (0–1), as `#rrggbb`. */
function mix(a: string, b: string, share: number): string {
  const rgb = (h: string) => {
    let s = h.replace('#', '');
    if (s.length === 3) s = [...s].map((c) => c + c).join('');
    return [0, 2, 4].map((i) => parseInt(s.slice(i, i + 2), 16));
  };
  const [x, y] = [rgb(a), rgb(b)];
  return `#${x
    .map((v, i) =>
      Math.round(v * share + y[i]! * (1 - share))
        .toString(16)
        .padStart(2, '0'),
    )
    .join('')}`;
}

/** The themes' own panel colours (styles/overlay.css `--bg`). */
const THEME_BG = { dark: '#0d1420', light: '#f7f8fb' } as const;

/**
 * The CSS custom properties the stage sets for the colours given (only those that differ from the theme's own):
 * `--on-accent`, `--accent-ink`, and with `bg` `--fg`, `--muted`, `--rest`, `--bg2`.
 */
export function inks(theme: 'dark' | 'light', c: { bg: string | null; fg: string | null; accent: string | null }): Record<string, string> {
  const out: Record<string, string> = {};
  if (c.accent) {
    out['--on-accent'] = inkOn(c.accent);
    out['--accent-ink'] = contrast(c.accent, THEME_BG[theme]) >= 4.5 ? c.accent : theme === 'dark' ? '#ffffff' : '#000000';
  }
  if (c.bg) {
    const fg = c.fg ?? inkOn(c.bg);
    out['--fg'] = fg;
    out['--muted'] = fg;
    out['--rest'] = fg;
    out['--bg2'] = mix(c.bg, inkOn(c.bg) === '#ffffff' ? '#000000' : '#ffffff', 0.82);
    out['--accent-ink'] = fg;
  }
  return out;
}
