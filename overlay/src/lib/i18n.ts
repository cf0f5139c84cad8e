/**
 * Page strings in English, Japanese and Traditional Chinese (Taiwan). Pure data plus a tiny formatter:
 * `t(lang, key, {name: 'Ann'})` fills `{name}` placeholders. Unknown languages fall back to English.
 * Two tables: the scorebug's own words (`t`, what the OBS overlay ships) and the dashboard / spectator
 * words (`tp`); the overlay never imports `tp`, so its bundle carries only the first table.
 */

export type Lang = 'en' | 'ja' | 'zh-TW';
export const LANGS: readonly Lang[] = ['en', 'ja', 'zh-TW'];
/** Display names for a language switch, in their own script. */
export const LANG_NAMES: Record<Lang, string> = { en: 'English', ja: '日本語', 'zh-TW': '繁體中文' };

const en = {
  raceTo: 'Race to {n}',
  straightPool: '14-1',
  rotation: 'Rotation',
  run: 'Run',
  highRun: 'High run',
  fouls: 'Fouls',
  onTwoFouls: 'On 2 fouls',
  rack: 'Rack',
  ballsOnTable: 'Balls on table',
  lowestBall: 'Lowest ball',
  ballsLeft: 'Balls left',
  pointsLeft: 'Points left',
  rackPoints: 'Rack points',
  wins: '{name} wins',
  toChooseBreakFoul: '{name} to choose: accept the table or re-break',
  toChooseThreeFoul: '{name} to choose: accept the table or re-rack',
  toChoosePushOut: '{name} to choose: shoot or pass',
  toChooseIllegalBreak: '{name} to choose: accept or re-rack',
  toPlace: '{name} places the balls after the foul',
  ballInHandKitchen: '{name}: ball in hand behind the head string',
  ballInHandAnywhere: '{name}: ball in hand',
  toBreak: '{name} to break',
  // captions
  capBreakingFoul: 'Breaking foul',
  capThirdFoul: 'Third foul',
  capFoul: 'Foul',
  capSafety: 'Safety',
  capMiss: 'Miss',
  capPushOut: 'Push out',
  capIllegalBreak: 'Illegal break',
  capRerack: 'Re-rack: {n} balls',
  capRackWon: 'Rack won',
  capPlaysOn: '{name} plays on',
  capPassedBack: 'Passed back',
  capUndo: 'Step taken back',
  capPoints: '+{n}',
  capStalemate: 'Stalemate: re-rack',
  capWarning: 'Warning: on two fouls',
  offline: 'offline',
  connecting: 'connecting',
  live: 'live',
};

const enPages = {
  innings: 'Innings',
  average: 'Average',
  safeties: 'Safeties',
  breakingFouls: 'Breaking fouls',
  threeFouls: 'Third fouls',
  points: 'Points',
  total: 'Total',
  inning: 'Inning',
  player: 'Player',
  whatIfTwoFouls: '{name} is on two fouls: another foul costs {n}',
  whatIfTwoFoulsUnwarned: '{name} is on two fouls, not yet warned: another foul costs {n}',
  whatIfNeeds: '{name} needs {n}',
  whatIfPointsLeft: '{n} points left on the table',
  whatIfClinch: '{name} clinches the rack with {n} more (61)',
  whatIfClinched: 'Rack clinched by {name}',
  whatIfRackBall: '{name} can win the match in this rack',
  // dashboard / watch
  sheet: 'Score sheet',
  runChart: 'Runs by inning',
  stats: 'Statistics',
  recent: 'Last steps',
  whatIf: 'What if',
  check: 'Consistency check',
  checkOk: 'consistent',
  checkFail: 'inconsistent',
  ballsPerRack: 'Balls per rack',
  liveMatches: 'Live matches',
  noMatches: 'No matches right now.',
  refresh: 'Refresh',
  share: 'Share',
  copied: 'Link copied',
  language: 'Language',
  delayed: 'Delayed {n} s',
  notFound: 'Match not found',
  finished: 'Finished',
  waiting: 'Waiting for the match…',
  syncing: 'Syncing with the stream ({n} s)…',
};

export type StringKey = keyof typeof en;
type Dict = Record<StringKey, string>;
export type PageKey = keyof typeof enPages;
type PageDict = Record<PageKey, string>;

const ja: Dict = {
  raceTo: '{n}点先取',
  straightPool: '14-1',
  rotation: 'ローテーション',
  run: 'ラン',
  highRun: 'ハイラン',
  fouls: 'ファウル',
  onTwoFouls: '2ファウル',
  rack: 'ラック',
  ballsOnTable: '残りボール',
  lowestBall: '最小番号',
  ballsLeft: '残りボール',
  pointsLeft: '残り点',
  rackPoints: 'ラック得点',
  wins: '{name} の勝利',
  toChooseBreakFoul: '{name} の選択: そのまま続行 または 再ブレイク',
  toChooseThreeFoul: '{name} の選択: そのまま続行 または 再ラック',
  toChoosePushOut: '{name} の選択: 打つ または パス',
  toChooseIllegalBreak: '{name} の選択: 続行 または 再ラック',
  toPlace: '{name} がファウル後の配置を行う',
  ballInHandKitchen: '{name}: キッチン内フリーボール',
  ballInHandAnywhere: '{name}: フリーボール',
  toBreak: '{name} のブレイク',
  capBreakingFoul: 'ブレイクファウル',
  capThirdFoul: '3ファウル',
  capFoul: 'ファウル',
  capSafety: 'セーフティ',
  capMiss: 'ミス',
  capPushOut: 'プッシュアウト',
  capIllegalBreak: '不正ブレイク',
  capRerack: '再ラック: {n}球',
  capRackWon: 'ラック獲得',
  capPlaysOn: '{name} がプレー',
  capPassedBack: 'パスで相手に戻す',
  capUndo: '取り消し',
  capPoints: '+{n}',
  capStalemate: '膠着: 再ラック',
  capWarning: '警告: 2ファウル',
  offline: 'オフライン',
  connecting: '接続中',
  live: 'ライブ',
};

const jaPages: PageDict = {
  innings: 'イニング',
  average: 'アベレージ',
  safeties: 'セーフティ',
  breakingFouls: 'ブレイクファウル',
  threeFouls: '3ファウル',
  points: '得点',
  total: '合計',
  inning: 'イニング',
  player: '選手',
  whatIfTwoFouls: '{name} は2ファウル: 次のファウルで {n}',
  whatIfTwoFoulsUnwarned: '{name} は2ファウル (警告前): 次のファウルは {n}',
  whatIfNeeds: '{name} あと {n} 点',
  whatIfPointsLeft: '台上の残り {n} 点',
  whatIfClinch: '{name} はあと {n} 点でラック確定 (61)',
  whatIfClinched: '{name} がラック確定',
  whatIfRackBall: '{name} はこのラックで勝利できる',
  sheet: 'スコアシート',
  runChart: 'イニング別ラン',
  stats: 'スタッツ',
  recent: '直近のプレー',
  whatIf: '展開',
  check: '整合性チェック',
  checkOk: '整合',
  checkFail: '不整合',
  ballsPerRack: 'ラック別ボール',
  liveMatches: 'ライブ中の試合',
  noMatches: '現在試合はありません。',
  refresh: '更新',
  share: '共有',
  copied: 'リンクをコピーしました',
  language: '言語',
  delayed: '{n} 秒遅延',
  notFound: '試合が見つかりません',
  finished: '終了',
  waiting: '試合を待っています…',
  syncing: '配信と同期しています ({n} 秒)…',
};

const zhTW: Dict = {
  raceTo: '搶 {n}',
  straightPool: '14-1',
  rotation: '輪換',
  run: '連續得分',
  highRun: '最高連續',
  fouls: '犯規',
  onTwoFouls: '已兩次犯規',
  rack: '局',
  ballsOnTable: '檯面球數',
  lowestBall: '最小號球',
  ballsLeft: '剩餘球數',
  pointsLeft: '剩餘分數',
  rackPoints: '本局分數',
  wins: '{name} 獲勝',
  toChooseBreakFoul: '{name} 選擇：接受球形或重新開球',
  toChooseThreeFoul: '{name} 選擇：接受球形或重新擺球',
  toChoosePushOut: '{name} 選擇：擊球或讓對手擊球',
  toChooseIllegalBreak: '{name} 選擇：接受或重新擺球',
  toPlace: '{name} 於犯規後擺放',
  ballInHandKitchen: '{name}：開球區自由球',
  ballInHandAnywhere: '{name}：自由球',
  toBreak: '{name} 開球',
  capBreakingFoul: '開球犯規',
  capThirdFoul: '三次犯規',
  capFoul: '犯規',
  capSafety: '防守',
  capMiss: '未進球',
  capPushOut: '推桿',
  capIllegalBreak: '開球不合規',
  capRerack: '重新擺球：{n} 顆',
  capRackWon: '贏得本局',
  capPlaysOn: '{name} 繼續擊球',
  capPassedBack: '讓回對手擊球',
  capUndo: '已撤銷',
  capPoints: '+{n}',
  capStalemate: '僵局：重新擺球',
  capWarning: '警告：已兩次犯規',
  offline: '離線',
  connecting: '連線中',
  live: '直播',
};

const zhTWPages: PageDict = {
  innings: '回合',
  average: '平均',
  safeties: '防守',
  breakingFouls: '開球犯規',
  threeFouls: '三次犯規',
  points: '得分',
  total: '總分',
  inning: '回合',
  player: '選手',
  whatIfTwoFouls: '{name} 已兩次犯規：再犯規扣 {n}',
  whatIfTwoFoulsUnwarned: '{name} 已兩次犯規（尚未警告）：再犯規扣 {n}',
  whatIfNeeds: '{name} 還需 {n} 分',
  whatIfPointsLeft: '檯面剩餘 {n} 分',
  whatIfClinch: '{name} 再得 {n} 分鎖定本局 (61)',
  whatIfClinched: '{name} 已鎖定本局',
  whatIfRackBall: '{name} 可在本局贏得比賽',
  sheet: '記分表',
  runChart: '各回合得分',
  stats: '統計',
  recent: '最近動作',
  whatIf: '情勢',
  check: '一致性檢查',
  checkOk: '一致',
  checkFail: '不一致',
  ballsPerRack: '每局球數',
  liveMatches: '進行中的比賽',
  noMatches: '目前沒有比賽。',
  refresh: '重新整理',
  share: '分享',
  copied: '已複製連結',
  language: '語言',
  delayed: '延遲 {n} 秒',
  notFound: '找不到比賽',
  finished: '已結束',
  waiting: '等待比賽…',
  syncing: '正在與直播同步（{n} 秒）…',
};

const DICTS: Record<Lang, Dict> = { en, ja, 'zh-TW': zhTW };
const PAGE_DICTS: Record<Lang, PageDict> = { en: enPages, ja: jaPages, 'zh-TW': zhTWPages };

/** Pick a supported language from a URL value or `navigator.language` (`zh-Hant`, `zh-TW` → zh-TW; `ja-JP` → ja). */
export function pickLang(value: string | null | undefined): Lang {
  const v = (value ?? '').toLowerCase();
  if (v.startsWith('ja')) return 'ja';
  if (v === 'zh-tw' || v.startsWith('zh-hant') || v === 'zh-hk' || v === 'zh') return 'zh-TW';
  return 'en';
}

/** Translate `key` into `lang`, filling `{placeholder}`s from `params`. */
export function t(lang: Lang, key: StringKey, params?: Record<string, string | number>): string {
  return fill((DICTS[lang] ?? en)[key] ?? en[key], params);
}

/** Translate a dashboard / spectator word (`PageKey`) or a scorebug word into `lang`. */
export function tp(lang: Lang, key: PageKey | StringKey, params?: Record<string, string | number>): string {
  if (key in en) return t(lang, key as StringKey, params);
  return fill((PAGE_DICTS[lang] ?? enPages)[key as PageKey] ?? enPages[key as PageKey], params);
}

export function fill(s: string, params?: Record<string, string | number>): string {
  if (!params) return s;
  return s.replace(/\{(\w+)\}/g, (m, k: string) => (k in params ? String(params[k]) : m));
}
