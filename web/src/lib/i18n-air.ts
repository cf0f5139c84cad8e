/**
 * Every language's on-air strings (./i18n/<lang>-air.ts) and the table overlay's cards (./i18n/<lang>-cards.ts),
 * added to the one `t()` of ./i18n: what the pages (through ./i18n-pages.ts) and the tests load. The OBS
 * overlays do not import this module: each loads only the parts of its own language (../overlay/air-strings.ts,
 * ../overlay/table/table-strings.ts).
 */
import { addStrings, type Lang } from './i18n';
import { type AirDict, en } from './i18n/en-air';
import { ja } from './i18n/ja-air';
import { zhTW } from './i18n/zh-TW-air';
import { type CardDict, enCards } from './i18n/en-cards';
import { jaCards } from './i18n/ja-cards';
import { zhTWCards } from './i18n/zh-TW-cards';

/** On-air tables by language, for completeness tests. */
export const AIR_TABLES: Record<Lang, AirDict> = { en, ja, 'zh-TW': zhTW };
/** The cards' tables by language, for completeness tests. */
export const CARD_TABLES: Record<Lang, CardDict> = { en: enCards, ja: jaCards, 'zh-TW': zhTWCards };
for (const [lang, table] of Object.entries(AIR_TABLES)) addStrings(lang as Lang, { ...table, ...CARD_TABLES[lang as Lang] });

export { fill, LANGS, pageLang, pickLang, t } from './i18n';
export type { AirKey, CardKey, Lang, StringKey } from './i18n';
