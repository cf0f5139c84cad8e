/**
 * The whole-history statistics: the test oracle of the incremental statistics (shared/stats.ts). One pass
 * over every effective step, oldest first, exactly as the server computed them before they were kept
 * incrementally (O(number of steps)). The check's formula and the sheet marks come from shared/stats.ts; everything that accumulates over the history is recomputed here.
 */
import type { MatchSetup, Pair } from '../../shared/protocol/setup';
import type { ConsistencyCheck, Outcome, PlayerStats, RackTotal, SheetRow } from '../../shared/protocol/state';
import type { Step } from '../../shared/protocol/steps';
import type { MatchStats } from '../../shared/protocol/wire';
import { type Core, idx, initialCore } from '../../shared/rules/core';
import { consistencyCheck, MARKS, RECENT_STEPS } from '../../shared/stats';
import { effectiveSteps, type Match } from '../../shared/engine';

/** Minimal view of an effective step: the state before it and its outcome. */
export interface StatsEntry {
  readonly before: Core;
  readonly step: Step;
  readonly outcome: Outcome;
}

/** Whole-history statistics of a match (the oracle of `statsOf`). */
export function referenceStats(match: Match): MatchStats {
  return deriveStats(match.setup, effectiveSteps(match), match.core);
}

/**
 * Compute statistics from the effective steps (oldest first) and the current core. O(number of steps).
 */
export function deriveStats(setup: MatchSetup, entries: readonly StatsEntry[], now: Core): MatchStats {
  const counts: Pair<{ safeties: number; fouls: number; breakingFouls: number; threeFouls: number; scored: number; penalties: number }> = [
    { safeties: 0, fouls: 0, breakingFouls: 0, threeFouls: 0, scored: 0, penalties: 0 },
    { safeties: 0, fouls: 0, breakingFouls: 0, threeFouls: 0, scored: 0, penalties: 0 },
  ];
  const sheet: SheetRow[] = [];
  const open: Pair<SheetRow | null> = [null, null];
  const racks = new Map<number, RackTotal>();
  entries.forEach((e, i) => {
    const o = e.outcome;
    const after = i + 1 < entries.length ? entries[i + 1]!.before : now;
    const k = idx(o.by);
    const cnt = counts[k];
    cnt.scored += o.points;
    cnt.penalties += o.penalty;
    if (o.safety) cnt.safeties++;
    if (o.foul === 'foul') cnt.fouls++;
    if (o.foul === 'breaking-foul') cnt.breakingFouls++;
    if (o.foul === 'third-foul') {
      cnt.fouls++;
      cnt.threeFouls++;
    }
    if (o.kind !== 'shot') return;
    if (o.inning !== undefined || open[k] === null) {
      const row: SheetRow = {
        player: o.by,
        inning: o.inning ?? e.before.innings[k],
        rack: o.rack ?? e.before.rack,
        points: 0,
        penalty: 0,
        mark: '',
        total: 0,
        open: true,
      };
      if (setup.discipline === 'rotation') row.balls = [];
      sheet.push(row);
      open[k] = row;
    }
    const row = open[k]!;
    row.points += o.points;
    row.penalty += o.penalty;
    row.total = after.score[k];
    if (o.balls && row.balls) row.balls.push(...o.balls);
    if (o.points > 0) {
      // Points belong to the rack the shot was played in (a shot that triggers a re-rack counts in the old one).
      const rack = o.rack ?? e.before.rack;
      const r = racks.get(rack) ?? { rack, points: [0, 0], balls: [[], []] };
      r.points[k] += o.points;
      if (o.balls) r.balls[k].push(...o.balls);
      racks.set(rack, r);
    }
    if (o.turnEnd) {
      row.mark = MARKS[o.turnEnd];
      delete row.open;
      open[k] = null;
    }
  });
  const players = ([0, 1] as const).map((k): PlayerStats => {
    const runs = sheet.filter((r) => r.player === (k === 0 ? 'A' : 'B')).map((r) => r.points);
    const innings = now.innings[k];
    const net = now.score[k] - setup.startScore[k];
    return {
      innings,
      points: now.score[k],
      average: innings > 0 ? Math.round((net / innings) * 100) / 100 : 0,
      highRun: now.highRun[k],
      safeties: counts[k].safeties,
      fouls: counts[k].fouls,
      breakingFouls: counts[k].breakingFouls,
      threeFouls: counts[k].threeFouls,
      runs,
    };
  }) as [PlayerStats, PlayerStats];
  const recent = entries.slice(-RECENT_STEPS).map((e) => e.outcome);
  return {
    players,
    sheet,
    racks: [...racks.values()].sort((a, b) => a.rack - b.rack),
    recent,
    check: consistency(setup, entries, now, counts),
  };
}

/** The consistency check from a whole-history pass: INV-2's points since the last re-rack recounted. */
function consistency(setup: MatchSetup, entries: readonly StatsEntry[], now: Core, counts: Pair<{ scored: number; penalties: number }>): ConsistencyCheck {
  const first = entries[0]?.before ?? initialCore(setup);
  const scored = counts[0].scored + counts[1].scored;
  const penalties = counts[0].penalties + counts[1].penalties;
  const rackStart = [...entries].reverse().find((e) => e.outcome.rerack)?.outcome;
  let inRack: number | null = null;
  if (setup.discipline === '14-1' && now.winner === null && (rackStart || (!setup.start && now.rack === 1))) {
    const since = rackStart ? entries.slice(entries.findLastIndex((e) => e.outcome === rackStart) + 1) : entries;
    inRack = since.reduce((a, e) => a + (e.outcome.kind === 'shot' ? e.outcome.points : 0), 0);
  }
  return consistencyCheck(setup, first, now, scored, penalties, inRack);
}
