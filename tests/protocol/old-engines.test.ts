/**
 * The pages run in old engines: OBS 27's browser source is Chromium 92 (OBS 28–30: 103, OBS 31: 127). The build
 * rewrites newer syntax (`build.target: 'chrome92'` in web/vite.config.ts and overlay/vite.shared.ts); it does not
 * add missing APIs. This check refuses, in every source a page bundles (web/src, overlay/src, shared/), the web
 * platform APIs and built-ins Chromium 92 lacks (each with the version that brought it), so a call like
 * `AbortSignal.timeout` (103; it left the scorer console's token check "unverified" in OBS 27) fails here, not
 * on air. CSS newer than 92 is refused too (an unknown declaration is dropped without an error: the tint of the
 * player at the table vanished on the hall board); a line may keep one as a progressive enhancement when it says
 * what the old engines do instead in an `old engines:` comment (a fallback declared before it, say). The pages
 * also run in Chromium 92, 103 and 127 themselves (tests/pages/old-engines-pages.test.ts, OBS_ENGINE).
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '..', '..');
/** An API Chromium 92 lacks: a pattern of its use in source and the Chromium version that has it. */
const MISSING_IN_92: [string, RegExp, number][] = [
  ['AbortSignal.timeout', /\bAbortSignal\.timeout\b/, 103],
  ['AbortSignal.any', /\bAbortSignal\.any\b/, 116],
  ['Object.hasOwn', /\bObject\.hasOwn\b/, 93],
  ['structuredClone', /\bstructuredClone\s*\(/, 98],
  ['Array/TypedArray findLast, findLastIndex', /\.findLast(Index)?\s*\(/, 97],
  ['toSorted, toReversed, toSpliced (change array by copy)', /\.(toSorted|toReversed|toSpliced)\s*\(/, 110],
  ['Array.fromAsync', /\bArray\.fromAsync\b/, 121],
  ['Promise.withResolvers', /\bPromise\.withResolvers\b/, 119],
  ['Object.groupBy, Map.groupBy', /\b(Object|Map)\.groupBy\b/, 117],
  ['String isWellFormed, toWellFormed', /\.(isWellFormed|toWellFormed)\s*\(/, 111],
  ['Element.checkVisibility', /\.checkVisibility\s*\(/, 105],
  ['HTMLDialogElement showModal without polyfill check', /\.showModal\s*\(/, 37],
  ['Intl.Segmenter', /\bIntl\.Segmenter\b/, 87],
  ['CSS :has()', /:has\(/, 105],
  ['CSS container queries', /@container\b|\bcontainer-type\s*:/, 105],
  ['CSS nesting (&)', /^\s*&[\s.:[>+~]/m, 112],
  ['CSS color-mix()', /\bcolor-mix\(/, 111],
  ['CSS oklch(), oklab(), lab(), lch()', /(^|[^\w-])(oklch|oklab|lab|lch)\(/, 111],
  ['CSS hwb()', /(^|[^\w-])hwb\(/, 101],
  ['CSS cascade layers (@layer)', /@layer\b/, 99],
  ['CSS viewport units dvh, svh, lvh (and w, i, b)', /\d(d|s|l)v(h|w|i|b|min|max)\b/, 108],
  ['CSS text-wrap: balance / pretty', /\btext-wrap(-style)?\s*:\s*(balance|pretty)/, 114],
  ['CSS accent-color', /(^|[^\w-])accent-color\s*:/, 93],
  ['CSS subgrid', /\bsubgrid\b/, 117],
  ['the `inert` attribute', /\binert\b\s*[={]/, 102],
  ['Set methods (union, intersection…)', /\.(union|intersection|symmetricDifference|isSubsetOf|isSupersetOf|isDisjointFrom)\s*\(/, 122],
  ['Array.prototype.with', /\.with\s*\(\s*\d/, 110],
  ['RegExp v flag', /\/[a-z]*v[a-z]*\.test\(|new RegExp\([^)]*,\s*'[a-z]*v/, 112],
];
/** Entries that name an API Chromium 92 has: kept so the list says what was checked (showModal 37, Intl.Segmenter 87). */
const PRESENT_IN_92 = (since: number) => since <= 92;

function sources(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir)) {
    if (name === 'node_modules' || name === 'dist') continue;
    const p = join(dir, name);
    if (statSync(p).isDirectory()) out.push(...sources(p));
    else if (/\.(ts|svelte|css|html|js)$/.test(name)) out.push(p);
  }
  return out;
}

describe('the pages use no API Chromium 92 (OBS 27) lacks', () => {
  const files = ['web/src', 'overlay/src', 'shared'].flatMap((d) => sources(join(ROOT, d)));

  it('finds the page sources', () => {
    expect(files.length).toBeGreaterThan(100);
  });

  it.each(MISSING_IN_92.filter(([, , since]) => !PRESENT_IN_92(since)))('%s', (what, pattern, since) => {
    const hits = files.flatMap((f) =>
      readFileSync(f, 'utf8')
        .split('\n')
        .map((line, i, all) => ({ f, i, line, before: all[i - 1] ?? '' }))
        // A fallback is marked by an `old engines:` comment on its line or the line before it.
        .filter(({ line, before }) => !/^\s*(\/\/|\*|\/\*)/.test(line) && !/\/\*\s*old engines:/.test(line + before) && pattern.test(line))
        .map(({ f, i, line }) => `${f.slice(ROOT.length + 1)}:${i + 1}: ${line.trim()}`),
    );
    expect(hits, `${what} needs Chromium ${since}; OBS 27 embeds 92`).toEqual([]);
  });

  it('the build targets Chromium 92 (syntax newer than it is rewritten)', () => {
    for (const f of ['web/vite.config.ts', 'overlay/vite.shared.ts']) expect(readFileSync(join(ROOT, f), 'utf8'), f).toMatch(/target: 'chrome92'/);
  });
});
