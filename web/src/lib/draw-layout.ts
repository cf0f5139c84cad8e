/**
 * How the draw page and the OBS draw graphics lay a draw out (pure): its matches in sections (winners' side,
 * losers' side, finals; one bracket for single elimination; the group rounds), each section's rounds in play
 * order, and the players' display names. Labels and words: shared/draw/labels.ts.
 */
import type { DrawMatchView } from '../../../shared/draw/state';
import type { DrawPagePlayer } from '../../../shared/protocol/draw';

/** A section of the bracket: its key and its rounds (each round's matches in bracket order). */
export interface DrawSection {
  key: 'W' | 'L' | 'F' | 'G';
  rounds: { round: string; matches: DrawMatchView[] }[];
}

/**
 * The sections of `matches` (structure order): `W` (winners' side, or the single elimination bracket with its
 * final), `L` (losers' side), `F` (double elimination's hot seat, final and reset), `G` (group rounds); empty
 * sections left out. A final reset not to be played (`void`) is left out.
 */
export function drawSections(matches: readonly DrawMatchView[], format: string): DrawSection[] {
  const double = matches.some((m) => m.side === 'L') || matches.some((m) => m.id === 'HS');
  const sectionOf = (m: DrawMatchView): DrawSection['key'] => {
    if (m.side === 'G') return 'G';
    if (m.side === 'L') return 'L';
    if (double && (m.side === 'F' || m.id === 'HS')) return 'F';
    return 'W';
  };
  const out: DrawSection[] = [];
  for (const key of ['W', 'L', 'F', 'G'] as const) {
    const rounds: DrawSection['rounds'] = [];
    for (const m of matches) {
      if (sectionOf(m) !== key || (m.id === 'FR' && m.status === 'void')) continue;
      const last = rounds[rounds.length - 1];
      if (last && last.round === m.round) last.matches.push(m);
      else rounds.push({ round: m.round, matches: [m] });
    }
    if (rounds.length) out.push({ key, rounds });
  }
  void format;
  return out;
}

/**
 * The rounds of a section from its first round with a match still to play, at most `max` (the OBS bracket shows
 * the rounds that matter now; the page shows all).
 */
export function currentRounds(section: DrawSection, max: number): DrawSection['rounds'] {
  const open = section.rounds.findIndex((r) => r.matches.some((m) => m.status !== 'done' && m.status !== 'bye' && m.status !== 'void'));
  const from = open < 0 ? Math.max(0, section.rounds.length - max) : Math.min(open, Math.max(0, section.rounds.length - max));
  return section.rounds.slice(from, from + max);
}

/** A player's display name: the short name when `short` and there is one, else the name; the id when unknown. */
export function playerName(players: ReadonlyMap<string, DrawPagePlayer>, id: string | null, short = false): string {
  if (id === null) return '';
  const p = players.get(id);
  if (!p) return id;
  return short && p.short ? p.short : p.name;
}

/** A match's score for a player slot (`i`), or '' when it has none. */
export function slotScore(m: DrawMatchView, i: 0 | 1): string {
  const s = m.result?.score;
  if (s) return String(s[i]);
  if (m.result && m.result.kind === 'walkover') return m.result.winner === m.players[i] ? 'W' : '–';
  return '';
}
