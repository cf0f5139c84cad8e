/**
 * Every language's on-air strings (./i18n/<lang>-air.ts), added to the one `t()` of ./i18n: what the pages
 * (through ./i18n-pages.ts) and the tests load. The OBS overlay does not import this module: it loads only the
 * table of its own language (../overlay/air-strings.ts).
 */
import { addStrings, type Lang } from './i18n';
import { type AirDict, en } from './i18n/en-air';
import { ja } from './i18n/ja-air';
import { zhTW } from './i18n/zh-TW-air';

/** On-air tables by language, for completeness tests. */
export const AIR_TABLES: Record<Lang, AirDict> = { en, ja, 'zh-TW': zhTW };
for (const [lang, table] of Object.entries(AIR_TABLES)) addStrings(lang as Lang, table);

export { fill, LANGS, pageLang, pickLang, t } from './i18n';
export type { AirKey, Lang, StringKey } from './i18n';
