/** The draw's labels (shared/draw/labels.ts): every match of each format named in the three languages. */
import { describe, expect, it } from 'vitest';
import {
  drawGroupLabel,
  drawMatchLabel,
  drawMatchRef,
  drawRoundLabel,
  drawWord,
  matchViews,
  type DrawDefinition,
  type DrawLang,
} from '../../shared/draw/index';
import { draw, field } from './play';

const LANGS: DrawLang[] = ['en', 'ja', 'zh-TW'];
const def = (format: DrawDefinition['format'], n: number, extra: Partial<DrawDefinition> = {}): DrawDefinition => ({
  format,
  players: field(n),
  seeding: { by: 'order' },
  races: { default: 100 },
  ...extra,
});
const labels = (d: DrawDefinition, lang: DrawLang) => matchViews(draw(d)).map((m) => [m.id, drawMatchLabel(drawMatchRef(m), lang)]);

describe('draw labels', () => {
  it('double elimination: winners and losers rounds with the match number, the hot seat, the losers final, the final and its reset', () => {
    const en = new Map(labels(def('double', 16, { trueDouble: true }), 'en') as [string, string][]);
    expect(en.get('W2-3')).toBe('Winners R2 \u00b7 M3');
    expect(en.get('L3-1')).toBe('Losers R3 \u00b7 M1');
    expect(en.get('HS')).toBe('Hot seat');
    expect(en.get('L6-1')).toBe("Losers' final");
    expect(en.get('F')).toBe('Final');
    expect(en.get('FR')).toBe('Final reset');
    const ja = new Map(labels(def('double', 16, { trueDouble: true }), 'ja') as [string, string][]);
    expect(ja.get('W2-3')).toBe('ウィナーズ 2回戦 \u00b7 第3試合');
    expect(ja.get('L6-1')).toBe('ルーザーズ決勝');
    const zh = new Map(labels(def('double', 16, { trueDouble: true }), 'zh-TW') as [string, string][]);
    expect(zh.get('L3-1')).toBe('敗部第3輪 \u00b7 第1場');
    expect(zh.get('FR')).toBe('決賽加賽');
  });

  it('single elimination: quarter-finals and semi-finals by name, earlier rounds by number', () => {
    const en = new Map(labels(def('single', 32), 'en') as [string, string][]);
    expect(en.get('R1-16')).toBe('Round 1 \u00b7 M16');
    expect(en.get('R3-2')).toBe('Quarter-final \u00b7 M2');
    expect(en.get('R4-1')).toBe('Semi-final \u00b7 M1');
    expect(en.get('F')).toBe('Final');
    expect(new Map(labels(def('single', 32), 'zh-TW') as [string, string][]).get('R4-2')).toBe('準決賽 \u00b7 第2場');
  });

  it('groups: the group letter and the group round', () => {
    const en = labels(def('groups-knockout', 24, { groupSize: 6, advance: 2 }), 'en');
    expect(en.find(([id]) => id === 'GB-2-1')![1]).toBe('Group B \u00b7 R2');
    const ja = labels(def('round-robin', 6, { groupSize: 6 }), 'ja');
    expect(ja[0]![1]).toBe('グループA \u00b7 第1節');
  });

  it('every match of every format has a label and a round heading in each language, with no placeholder left', () => {
    const defs = [
      def('single', 13),
      def('double', 128, { trueDouble: true }),
      def('double', 3),
      def('round-robin', 9, { groupSize: 4 }),
      def('groups-knockout', 24, { groupSize: 6, advance: 2, knockout: 'double' }),
    ];
    for (const d of defs)
      for (const m of matchViews(draw(d)))
        for (const lang of LANGS) {
          const label = drawMatchLabel(drawMatchRef(m), lang);
          const round = drawRoundLabel(m, lang);
          expect(label).not.toMatch(/[{}?]|undefined|NaN|M0|第0/);
          expect(round).not.toMatch(/[{}?]|undefined|NaN/);
          expect(label.startsWith(round) || m.side === 'G').toBe(true);
        }
  });

  it('an unknown language is refused by name', () => {
    expect(() => drawMatchLabel({ match: 'F', side: 'F', round: 'F', roundName: 'Final' }, 'fr' as DrawLang)).toThrow(/lang: .*"fr"/);
    expect(() => drawWord('standings', 'de' as DrawLang)).toThrow(/lang/);
    expect(drawWord('standings', 'ja')).toBe('順位');
    expect(drawGroupLabel('B', 'zh-TW')).toBe('B組');
  });
});
