/**
 * The OBS overlay's own words (moment titles, panel badges, the not-found card) in English, Japanese and
 * Traditional Chinese. Kept apart from lib/i18n.ts (the captions' and scorebug's shared words) so the pages
 * that never show moments do not ship them. Captions themselves come from lib/format.ts, never from here.
 */
import { fill, type Lang } from '../lib/i18n';

const en = {
  matchWon: 'Match won',
  rackWon: 'Rack {n} won',
  rerack: 'Re-rack',
  highRun: 'New high run of the match',
  run: 'Run',
  score: 'Score',
  rackPoints: 'Rack points',
  highRuns: 'High runs',
  previousBest: 'Previous best',
  winner: 'Winner',
  atTable: 'At the table',
  playerA: 'Player A',
  playerB: 'Player B',
  notFound: 'Match not found: {id}',
  noId: 'No match in this address',
  checkUrl: 'Check the overlay URL in OBS:',
};

export type OverlayWord = keyof typeof en;

const ja: Record<OverlayWord, string> = {
  matchWon: '試合終了',
  rackWon: 'ラック {n} 獲得',
  rerack: '再ラック',
  highRun: '試合ハイラン更新',
  run: 'ラン',
  score: 'スコア',
  rackPoints: 'ラック得点',
  highRuns: 'ハイラン',
  previousBest: 'これまでの最高',
  winner: '勝者',
  atTable: 'ショット中',
  playerA: 'プレイヤーA',
  playerB: 'プレイヤーB',
  notFound: '試合が見つかりません: {id}',
  noId: 'アドレスに試合IDがありません',
  checkUrl: 'OBS のオーバーレイURLを確認してください:',
};

const zhTW: Record<OverlayWord, string> = {
  matchWon: '比賽結束',
  rackWon: '贏得第 {n} 局',
  rerack: '重新擺球',
  highRun: '本場最高連續得分',
  run: '連續得分',
  score: '比分',
  rackPoints: '本局分數',
  highRuns: '最高連續',
  previousBest: '先前最佳',
  winner: '勝者',
  atTable: '擊球中',
  playerA: '選手 A',
  playerB: '選手 B',
  notFound: '找不到比賽：{id}',
  noId: '網址中沒有比賽',
  checkUrl: '請檢查 OBS 的字幕網址：',
};

const DICTS: Record<Lang, Record<OverlayWord, string>> = { en, ja, 'zh-TW': zhTW };

/** Translate an overlay word into `lang`, filling `{placeholder}`s; unknown languages fall back to English. */
export function ow(lang: Lang, key: OverlayWord, params?: Record<string, string | number>): string {
  return fill((DICTS[lang] ?? en)[key], params);
}

/** Every language's table, for the completeness test. */
export const OVERLAY_WORDS = DICTS;
