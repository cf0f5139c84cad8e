/**
 * The translation tables: one per language, in three parts (on-air: what the OBS overlay ships; cards: what the
 * table overlay adds; pages: the dashboard, spectator page, scorer, launcher and event pages). Every language
 * has every key of the English tables with the same placeholders, no key is in two parts, the OBS overlays'
 * sources word everything with on-air and cards keys of the one table (no words of their own), no page anywhere
 * defines a language table or a translate function of its own and every key a page asks for is in the one table, Japanese and Chinese hold no English words and use the
 * rulebook's terms; the dashboard's consistency check and the page language. Outcomes in every language:
 * translations.test.ts.
 */
import { describe, expect, it } from 'vitest';
import type { ConsistencyCheck } from '../../shared/protocol/state';
import { checkLine } from '../../web/src/lib/format-whatif';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { AIR_TABLES, CARD_TABLES, LANGS, pageLang, t } from '../../web/src/lib/i18n-air';
import { PAGE_TABLES } from '../../web/src/lib/i18n-pages';
import { countryName } from '../../web/src/event/countries';

const placeholders = (s: string) => (s.match(/\{\w+\}/g) ?? []).sort();

describe('translation tables', () => {
  it('every language has every key of the English tables, non-empty, with the same placeholders', () => {
    const tables = [AIR_TABLES, CARD_TABLES, PAGE_TABLES] as const;
    for (const group of tables) {
      const keys = Object.keys(group.en);
      for (const lang of LANGS) {
        const table = group[lang] as Record<string, string>;
        expect(Object.keys(table).sort(), lang).toEqual([...keys].sort());
        for (const k of keys) {
          expect(typeof table[k] === 'string' && table[k].trim().length, `${lang}.${k} is empty`).toBeGreaterThan(0);
          expect(placeholders(table[k]!), `${lang}.${k}`).toEqual(placeholders((group.en as Record<string, string>)[k]!));
        }
      }
    }
    // One table per language: no key is in two of its parts.
    const keys = tables.flatMap((group) => Object.keys(group.en));
    expect(keys.filter((k, i) => keys.indexOf(k) !== i)).toEqual([]);
  });

  it('the OBS overlays word everything from the on-air and cards parts of the one table: every key they use is there, no words of their own', () => {
    const dir = join(import.meta.dirname, '../../overlay/src');
    const used = new Set<string>();
    for (const f of readdirSync(dir, { recursive: true, encoding: 'utf8' }).filter((n) => /\.(ts|svelte)$/.test(n))) {
      const src = readFileSync(join(dir, f), 'utf8');
      // No table of its own: the overlay's modules import words from lib/i18n and define no language table.
      expect(src, f).not.toMatch(/['"]zh-TW['"]\s*:\s*\{|\bja\s*:\s*\{/);
      for (const m of src.matchAll(/\bt\(\s*[\w.]+\s*,\s*'([\w.-]+)'/g)) used.add(m[1]!);
      for (const m of src.matchAll(/\blabel\(\s*p\s*,\s*'([\w.-]+)'/g)) used.add(m[1]!);
    }
    expect(used.size).toBeGreaterThan(20); // the scan sees the overlays' words (labels, moments, cards, not-found cards)
    for (const k of ['racksWon', 'final', 'ev.tableNotFound', 'innings']) expect([...used]).toContain(k);
    for (const k of used) expect(k in AIR_TABLES.en || k in CARD_TABLES.en, `overlay key ${k} is not an on-air or cards string`).toBe(true);
  });

  it('every page words everything from the one table: no language table or translate function of its own, every key it asks for there', () => {
    const root = join(import.meta.dirname, '../..');
    const i18n = join(root, 'web/src/lib/i18n');
    // The pages of web/ and the OBS overlays of overlay/.
    const sources = ['web/src', 'overlay/src']
      .flatMap((dir) => readdirSync(join(root, dir), { recursive: true, encoding: 'utf8' }).map((f) => join(root, dir, f)))
      .filter((f) => /\.(ts|svelte)$/.test(f))
      // The one table (lib/i18n/<lang>-air.ts, <lang>-pages.ts), its `t()` (lib/i18n.ts) and the modules adding its parts.
      .filter((f) => !f.startsWith(i18n + '/') && !/\/lib\/i18n(-air|-pages)?\.ts$/.test(f));
    expect(sources.length).toBeGreaterThan(60);
    const used = new Map<string, string>();
    for (const f of sources) {
      const src = readFileSync(f, 'utf8');
      const name = f.slice(root.length + 1);
      // No Japanese or Chinese words (they live in the tables only), no table keyed by language (`ja: {…}`,
      // `'zh-TW': '…'`), no import of a table or a translator from elsewhere, no translate function.
      expect(src, name).not.toMatch(/[\u3040-\u30ff\u4e00-\u9fff]/);
      expect(src, name).not.toMatch(/(['"]zh-TW['"]|\b(en|ja)\b)\s*:\s*[{'"`]/);
      expect(src, name).not.toMatch(/from\s+['"](?:[./]|web\/src\/)*(lib\/)?i18n-(?!air['"]|pages['"])[\w-]+['"]/);
      expect(src, name).not.toMatch(/\bfunction\s+t[a-z]?\s*\(\s*lang\b/);
      for (const m of src.matchAll(/\bt\(\s*[\w.$]+\s*,\s*'([\w.-]+)'/g)) used.set(m[1]!, name);
    }
    expect(used.size).toBeGreaterThan(300); // the scan sees every page's words (event pages included)
    for (const [k, file] of used)
      expect(k in AIR_TABLES.en || k in CARD_TABLES.en || k in PAGE_TABLES.en, `${file} asks for "${k}", which is in no table`).toBe(true);
    for (const k of ['ev.startNext', 'ev.keepLink', 'ev.tableNotFound']) expect([...used.keys()]).toContain(k);
    // The home nations, which the browser does not name, are named from the table too.
    expect(countryName('GB-SCT', 'ja')).toBe(t('ja', 'country.GB-SCT'));
    expect(countryName('GB-NIR', 'zh-TW')).toBe('北愛爾蘭');
  });

  it('Japanese and Chinese tables hold no English words; the rulebook terms are used', () => {
    for (const lang of ['ja', 'zh-TW'] as const) {
      for (const [k, v] of Object.entries({ ...AIR_TABLES[lang], ...CARD_TABLES[lang] })) {
        // Product names stay as they are (the not-found card names OBS).
        expect(v.replace(/\{\w+\}/g, '').replace(/\bOBS\b/g, ''), `${lang}.${k}`).not.toMatch(/[A-Za-z]/);
      }
    }
    expect(t('zh-TW', 'o.breakingFoul')).toBe('開球犯規');
    expect(t('zh-TW', 'o.thirdFoul')).toBe('連續三次犯規');
    expect(t('zh-TW', 'o.pushOut', { name: 'A' })).toContain('推桿');
    expect(t('zh-TW', 'foul.scratch')).toBe('母球落袋');
    expect(t('zh-TW', 'foul.no-rail')).toBe('未碰顆星');
    expect(t('zh-TW', 'foul.double-hit')).toBe('連擊');
    expect(t('zh-TW', 'rotation')).toBe('輪轉球');
    expect(t('ja', 'o.thirdFoul')).toBe('スリーファウル');
    expect(t('ja', 'o.safety', { name: 'A' })).toContain('セーフティ');
  });

  it('the consistency check in words, in each language (14-1 INV-1 / INV-2, Rotation INV-R1 with a tie-break)', () => {
    const c14: ConsistencyCheck = {
      discipline: '14-1',
      ok: false,
      scoreChange: -3,
      scored: 2,
      penalties: 4,
      scoreOk: false,
      rack: { scored: 2, onTable: 13, ok: true },
    };
    expect(checkLine(c14, 'en')).toBe('score change \u22123 \u2260 2 balls \u2212 4 foul points; this rack 2 scored = 15 \u2212 13 on the table');
    expect(checkLine(c14, 'ja')).toBe('得点の増減 \u22123 \u2260 得点した球 2 − ファウル失点 4; このラックの得点 2 = 15 − 台上の球 13');
    const rot: ConsistencyCheck = { discipline: 'rotation', ok: true, scoreChange: 121, racks: 1, fromTable: 0, tieBreak: true };
    expect(checkLine(rot, 'en')).toBe('score change 121 = 120 \u00d7 1 racks + 0 from this table + 1 tie-break');
    expect(checkLine(rot, 'zh-TW')).toBe('比分變化 121 = 120 \u00d7 1 局 + 本局檯面 0 + 同分加 1 分');
    for (const lang of ['ja', 'zh-TW'] as const) {
      for (const c of [c14, { ...c14, rack: null }, rot]) expect(checkLine(c, lang)).not.toMatch(/[A-Za-z{}]/);
    }
  });

  it('the page language: ?lang= first, then the last choice in this browser, then the browser', () => {
    const none = { getItem: () => null, setItem: () => undefined };
    const picked = { getItem: () => 'ja', setItem: () => undefined };
    expect(pageLang('?lang=ja', 'en-US', none)).toBe('ja');
    expect(pageLang('', 'zh-TW', none)).toBe('zh-TW');
    expect(pageLang('', 'zh-Hant-HK', none)).toBe('zh-TW');
    expect(pageLang('', 'fr-FR', none)).toBe('en');
    expect(pageLang('', 'zh-TW', picked)).toBe('ja');
    expect(pageLang('?lang=zh-TW', 'en', picked)).toBe('zh-TW');
    expect(pageLang('', 'ja', null)).toBe('ja');
  });
});
