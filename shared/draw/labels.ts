/**
 * How a draw's matches and rounds are named on screen, in English, Japanese and Traditional Chinese (Taiwan):
 * one pure function for every place that shows them — the overlay's intro card ("Winners R2 · M5", "Losers'
 * final", "Group B · R2"), the hall board's "next up" band, the draw page's round headings and the OBS bracket.
 * It reads only the match's structure facts (side, round key, round name, place, group), never the state.
 */
import type { DrawSide } from './types';

/** The languages the labels come in (the pages' `Lang`, web/src/lib/i18n.ts). */
export type DrawLang = 'en' | 'ja' | 'zh-TW';

/**
 * The structure facts of a draw match that its label needs: those of `DrawMatchView` (state.ts) and
 * `MatchSpec` (types.ts), as a match made by the draw carries them (`EventMatch.draw`).
 */
export interface DrawMatchRef {
  /** The match's id in the draw: `W2-5`, `L3-1`, `HS`, `F`, `FR`, `R1-3`, `GB-2-1`. */
  match: string;
  side: DrawSide;
  /** Round key: `W2`, `L3`, `R1`, `F`, `FR`, `G2`. */
  round: string;
  /** The round's English name from the structure ("Winners' round 2", "Semi-finals", "Losers' final", "Hot seat"). */
  roundName: string;
  /** Group letter of a group match. */
  group?: string;
}

/** A round's kind, as the labels word it. */
type RoundKind =
  | { k: 'winners'; r: number }
  | { k: 'losers'; r: number }
  | { k: 'losersFinal' }
  | { k: 'hotSeat' }
  | { k: 'final' }
  | { k: 'reset' }
  | { k: 'round'; r: number }
  | { k: 'quarter' }
  | { k: 'semi' }
  | { k: 'group'; r: number };

/** The words of one language. `{r}` a round number, `{m}` a match number, `{g}` a group letter. */
interface Words {
  winners: string;
  losers: string;
  losersFinal: string;
  hotSeat: string;
  final: string;
  reset: string;
  round: string;
  quarter: string;
  semi: string;
  groupRound: string;
  group: string;
  /** A group match's round, after the group's name. */
  groupMatch: string;
  match: string;
  sep: string;
}

const WORDS: Record<DrawLang, Words> = {
  en: {
    winners: 'Winners R{r}',
    losers: 'Losers R{r}',
    losersFinal: "Losers' final",
    hotSeat: 'Hot seat',
    final: 'Final',
    reset: 'Final reset',
    round: 'Round {r}',
    quarter: 'Quarter-final',
    semi: 'Semi-final',
    groupRound: 'Group round {r}',
    group: 'Group {g}',
    groupMatch: 'R{r}',
    match: 'M{m}',
    sep: ' \u00b7 ',
  },
  ja: {
    winners: 'ウィナーズ {r}回戦',
    losers: 'ルーザーズ {r}回戦',
    losersFinal: 'ルーザーズ決勝',
    hotSeat: 'ホットシート',
    final: '決勝',
    reset: '決勝リセット',
    round: '{r}回戦',
    quarter: '準々決勝',
    semi: '準決勝',
    groupRound: 'グループ第{r}節',
    group: 'グループ{g}',
    groupMatch: '第{r}節',
    match: '第{m}試合',
    sep: ' \u00b7 ',
  },
  'zh-TW': {
    winners: '勝部第{r}輪',
    losers: '敗部第{r}輪',
    losersFinal: '敗部決賽',
    hotSeat: '勝部決賽',
    final: '決賽',
    reset: '決賽加賽',
    round: '第{r}輪',
    quarter: '八強賽',
    semi: '準決賽',
    groupRound: '小組第{r}輪',
    group: '{g}組',
    groupMatch: '第{r}輪',
    match: '第{m}場',
    sep: ' \u00b7 ',
  },
};

const put = (s: string, v: Record<string, string | number>) => s.replace(/\{(\w)\}/g, (m, k: string) => (k in v ? String(v[k]) : m));

/** The kind of round `ref` is in (from its round key and English round name). */
function kindOf(ref: Pick<DrawMatchRef, 'side' | 'round' | 'roundName'>): RoundKind {
  const n = Number(/\d+$/.exec(ref.round)?.[0] ?? '0');
  if (ref.round === 'FR') return { k: 'reset' };
  if (ref.round === 'F') return { k: 'final' };
  if (ref.side === 'G') return { k: 'group', r: n };
  if (ref.roundName === 'Hot seat') return { k: 'hotSeat' };
  if (ref.roundName === "Losers' final") return { k: 'losersFinal' };
  if (ref.side === 'L') return { k: 'losers', r: n };
  if (ref.round.startsWith('W')) return { k: 'winners', r: n };
  if (ref.roundName === 'Quarter-finals') return { k: 'quarter' };
  if (ref.roundName === 'Semi-finals') return { k: 'semi' };
  return { k: 'round', r: n };
}

function roundWords(kind: RoundKind, w: Words): string {
  switch (kind.k) {
    case 'winners':
      return put(w.winners, { r: kind.r });
    case 'losers':
      return put(w.losers, { r: kind.r });
    case 'round':
      return put(w.round, { r: kind.r });
    case 'group':
      return put(w.groupRound, { r: kind.r });
    default:
      return w[kind.k];
  }
}

/**
 * A round's heading in `lang`: "Winners R2", "Losers R3", "Losers' final", "Hot seat", "Final", "Final reset",
 * "Round 1", "Quarter-final", "Semi-final", "Group round 2". @throws on an unknown language.
 */
export function drawRoundLabel(ref: Pick<DrawMatchRef, 'side' | 'round' | 'roundName'>, lang: DrawLang): string {
  const w = WORDS[lang];
  if (!w) throw new Error(`lang: no draw labels in "${String(lang)}" (en, ja, zh-TW)`);
  return roundWords(kindOf(ref), w);
}

/**
 * A match's round and bracket place in `lang`, for the intro card and the hall board: "Winners R2 · M5",
 * "Losers R3 · M1", "Losers' final", "Hot seat", "Final", "Final reset", "Round 1 · M3", "Semi-final · M2",
 * "Group B · R2" (a round with one match names no match number). @throws on an unknown language.
 */
export function drawMatchLabel(ref: DrawMatchRef, lang: DrawLang): string {
  const w = WORDS[lang];
  if (!w) throw new Error(`lang: no draw labels in "${String(lang)}" (en, ja, zh-TW)`);
  const kind = kindOf(ref);
  const m = Number(/-(\d+)$/.exec(ref.match)?.[1] ?? '0');
  if (kind.k === 'group') return put(w.group, { g: ref.group ?? '?' }) + w.sep + put(w.groupMatch, { r: kind.r });
  const head = roundWords(kind, w);
  const single = kind.k === 'final' || kind.k === 'reset' || kind.k === 'hotSeat' || kind.k === 'losersFinal';
  return single || m === 0 ? head : head + w.sep + put(w.match, { m });
}

/** A group's name in `lang`: "Group B", "グループB", "B組". @throws on an unknown language. */
export function drawGroupLabel(group: string, lang: DrawLang): string {
  const w = WORDS[lang];
  if (!w) throw new Error(`lang: no draw labels in "${String(lang)}" (en, ja, zh-TW)`);
  return put(w.group, { g: group });
}

/** A few more words the draw's graphics show beside the labels (the OBS bracket and standings lower third). */
const GRAPHIC_WORDS: Record<DrawLang, Record<'standings' | 'bracket' | 'winnersSide' | 'losersSide' | 'finals' | 'champion' | 'live' | 'groups', string>> = {
  en: {
    standings: 'Standings',
    bracket: 'Bracket',
    winnersSide: "Winners' side",
    losersSide: "Losers' side",
    finals: 'Finals',
    champion: 'Champion',
    live: 'Live',
    groups: 'Groups',
  },
  ja: {
    standings: '順位',
    bracket: 'トーナメント表',
    winnersSide: 'ウィナーズ',
    losersSide: 'ルーザーズ',
    finals: '決勝',
    champion: '優勝',
    live: 'ライブ',
    groups: 'グループ',
  },
  'zh-TW': {
    standings: '排名',
    bracket: '賽程表',
    winnersSide: '勝部',
    losersSide: '敗部',
    finals: '決賽',
    champion: '冠軍',
    live: '進行中',
    groups: '小組',
  },
};

/** A word of the draw's graphics in `lang` (`standings`, `bracket`, `winnersSide`, `losersSide`, `finals`, `champion`, `live`, `groups`). */
export function drawWord(key: keyof (typeof GRAPHIC_WORDS)['en'], lang: DrawLang): string {
  const w = GRAPHIC_WORDS[lang];
  if (!w) throw new Error(`lang: no draw labels in "${String(lang)}" (en, ja, zh-TW)`);
  return w[key];
}

/** The label facts of a draw match view or spec (`id` as `match`). */
export function drawMatchRef(m: { id: string; side: DrawSide; round: string; roundName: string; group?: string }): DrawMatchRef {
  const ref: DrawMatchRef = { match: m.id, side: m.side, round: m.round, roundName: m.roundName };
  if (m.group !== undefined) ref.group = m.group;
  return ref;
}
