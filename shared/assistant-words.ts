/**
 * The production assistant's words (highlight titles for chapters, talking points) in the app's three
 * languages: English, Japanese and Traditional Chinese (Taiwan). Kept beside the pure modules that use them
 * (shared/highlights.ts, shared/talking-points.ts) so the server words a `chapters.txt` or a
 * `talking-points.json` in the asked language without the pages' tables, and the overlay's bundle gets them
 * worded by the server. Every language must have every key (the type says so). Placeholders are `{name}`.
 */

/** The languages the assistant words its output in (the same three as the pages, web/src/lib/i18n.ts). */
export type AssistantLang = 'en' | 'ja' | 'zh-TW';
/** Every assistant language. */
export const ASSISTANT_LANGS: readonly AssistantLang[] = ['en', 'ja', 'zh-TW'];

const EN = {
  'ch.start': '{a} vs {b}',
  'ch.rack': 'Rack {rack} — {what}',
  'hl.rack-won': '{name} wins the rack {own}–{other}',
  'hl.match-won': '{name} wins {score}',
  'hl.run': '{name} {run}-ball run',
  'hl.run.points': '{name} run of {run} points',
  'hl.century': '{name} century: {run}-ball run',
  'hl.match-high-run': '{name} new high run of the match: {run}',
  'hl.event-high-run': '{name} new event high run: {run}',
  'hl.third-foul': '{name} third foul',
  'hl.hill-hill': 'Hill-hill: {score}',
  'hl.time-foul': '{name} time foul',
  'hl.comeback': '{name} comes back from {behind} behind',
  'hl.clinched-61': '{name} clinches the rack with {points}',
  'tp.event-high-run': '{run} is the event\u2019s high run ({name})',
  'tp.event-high-run.tied': '{name}\u2019s {run} ties the event\u2019s high run',
  'tp.needs': '{name} needs {needed} to win; averages {average} an inning',
  'tp.racks-in-row': '{name} has won {count} racks in a row',
  'tp.two-fouls': '{name} is on two fouls',
  'tp.hill-hill': 'Hill-hill: {score}',
  'tp.best-run': '{run} is the best run of the match ({name})',
  'tp.on-a-run': '{name} is on a run of {run}',
  'tp.head-to-head': 'Earlier at this event: {winner} beat {loser} {score}',
  'tp.clinched': '{name} has {points}: the rack is clinched',
  'tp.points-left': '{left} points left on the table; {name} needs {clinch} to clinch the rack',
  'tp.comeback': '{name} has come back from {behind} behind',
} as const;

/** A key of the assistant's words. */
export type AssistantKey = keyof typeof EN;

const JA: Record<AssistantKey, string> = {
  'ch.start': '{a} 対 {b}',
  'ch.rack': 'ラック{rack} — {what}',
  'hl.rack-won': '{name} ラック獲得 {own}–{other}',
  'hl.match-won': '{name} 勝利 {score}',
  'hl.run': '{name} {run}球連続',
  'hl.run.points': '{name} {run}点連続',
  'hl.century': '{name} センチュリー：{run}球連続',
  'hl.match-high-run': '{name} この試合の最高ラン更新：{run}',
  'hl.event-high-run': '{name} 大会最高ラン更新：{run}',
  'hl.third-foul': '{name} 3回連続ファウル',
  'hl.hill-hill': 'ヒル・ヒル：{score}',
  'hl.time-foul': '{name} タイムファウル',
  'hl.comeback': '{name} {behind}点差から逆転',
  'hl.clinched-61': '{name} {points}点でラック確定',
  'tp.event-high-run': '{run}が大会の最高ラン（{name}）',
  'tp.event-high-run.tied': '{name}の{run}は大会最高ランに並ぶ',
  'tp.needs': '{name} 勝利まであと{needed}、1イニング平均{average}',
  'tp.racks-in-row': '{name} {count}ラック連続獲得',
  'tp.two-fouls': '{name} 2ファウル中',
  'tp.hill-hill': 'ヒル・ヒル：{score}',
  'tp.best-run': '{run}がこの試合のベストラン（{name}）',
  'tp.on-a-run': '{name} 現在{run}連続',
  'tp.head-to-head': '今大会の対戦：{winner}が{loser}に{score}で勝利',
  'tp.clinched': '{name} {points}点：ラック確定',
  'tp.points-left': '台上の残り{left}点、{name}はラック確定まで{clinch}点',
  'tp.comeback': '{name} {behind}点差から逆転',
};

const ZH_TW: Record<AssistantKey, string> = {
  'ch.start': '{a} 對 {b}',
  'ch.rack': '第{rack}局 — {what}',
  'hl.rack-won': '{name} 拿下此局 {own}–{other}',
  'hl.match-won': '{name} 獲勝 {score}',
  'hl.run': '{name} 連續{run}球',
  'hl.run.points': '{name} 連續得{run}分',
  'hl.century': '{name} 百球連續：{run}球',
  'hl.match-high-run': '{name} 本場最高連續得分：{run}',
  'hl.event-high-run': '{name} 本賽事最高連續得分：{run}',
  'hl.third-foul': '{name} 連續第三次犯規',
  'hl.hill-hill': '搶七局面：{score}',
  'hl.time-foul': '{name} 超時犯規',
  'hl.comeback': '{name} 落後{behind}分後反超',
  'hl.clinched-61': '{name} 以{points}分確定拿下此局',
  'tp.event-high-run': '{run} 是本賽事最高連續得分（{name}）',
  'tp.event-high-run.tied': '{name} 的 {run} 追平本賽事最高連續得分',
  'tp.needs': '{name} 還需 {needed} 分獲勝；平均每局 {average} 分',
  'tp.racks-in-row': '{name} 連續拿下 {count} 局',
  'tp.two-fouls': '{name} 已連續兩次犯規',
  'tp.hill-hill': '搶七局面：{score}',
  'tp.best-run': '{run} 是本場最佳連續得分（{name}）',
  'tp.on-a-run': '{name} 正連續得分 {run}',
  'tp.head-to-head': '本賽事稍早：{winner} 以 {score} 勝 {loser}',
  'tp.clinched': '{name} 已得 {points} 分：此局確定',
  'tp.points-left': '檯面剩 {left} 分；{name} 還需 {clinch} 分確定此局',
  'tp.comeback': '{name} 落後 {behind} 分後反超',
};

const TABLES: Record<AssistantLang, Record<AssistantKey, string>> = { en: EN, ja: JA, 'zh-TW': ZH_TW };

/** True when `s` names one of the assistant's languages. */
export function isAssistantLang(s: unknown): s is AssistantLang {
  return typeof s === 'string' && (ASSISTANT_LANGS as readonly string[]).includes(s);
}

/** `key` in `lang` with its `{placeholder}`s filled from `params` (a placeholder without a value stays as written). */
export function say(lang: AssistantLang, key: AssistantKey, params: Record<string, string | number> = {}): string {
  return TABLES[lang][key].replace(/\{(\w+)\}/g, (m, k: string) => (k in params ? String(params[k]) : m));
}

/** A number as the assistant writes it: integers as is, others with one decimal ("4.6"). */
export function figure(n: number): string {
  return Number.isInteger(n) ? String(n) : n.toFixed(1);
}
