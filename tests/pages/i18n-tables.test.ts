/**
 * The translation tables: one per language, in two parts (on-air: what the OBS overlay ships; pages: the
 * dashboard, spectator page, scorer and launcher). Every language has every key of the English tables with the
 * same placeholders, no key is in both parts, Japanese and Chinese hold no English words and use the
 * rulebook's terms; the dashboard's consistency check and the page language. Outcomes in every language:
 * translations.test.ts.
 */
import { describe, expect, it } from 'vitest';
import type { ConsistencyCheck } from '../../shared/protocol/state';
import { checkLine } from '../../overlay/src/lib/format-whatif';
import { AIR_TABLES, LANGS, t } from '../../overlay/src/lib/i18n';
import { PAGE_TABLES } from '../../overlay/src/lib/i18n-pages';
import { pageLang } from '../../overlay/src/lib/i18n';

const placeholders = (s: string) => (s.match(/\{\w+\}/g) ?? []).sort();

describe('translation tables', () => {
  it('every language has every key of the English tables, non-empty, with the same placeholders', () => {
    const tables = [AIR_TABLES, PAGE_TABLES] as const;
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
    // One table per language: no key is both an on-air and a page string.
    const both = Object.keys(AIR_TABLES.en).filter((k) => k in PAGE_TABLES.en);
    expect(both).toEqual([]);
  });

  it('Japanese and Chinese tables hold no English words; the rulebook terms are used', () => {
    for (const lang of ['ja', 'zh-TW'] as const) {
      for (const [k, v] of Object.entries(AIR_TABLES[lang])) {
        expect(v.replace(/\{\w+\}/g, ''), `${lang}.${k}`).not.toMatch(/[A-Za-z]/);
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
    const c14: ConsistencyCheck = { discipline: '14-1', ok: false, scoreChange: -3, scored: 2, penalties: 4, scoreOk: false, rack: { scored: 2, onTable: 13, ok: true } };
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
