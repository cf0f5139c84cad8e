/**
 * `GET /api/matches/:id/odds.json`: what it takes (shared/win-probability.ts) for a match, with each player's
 * innings in their earlier matches of the match's event pooled into the 14-1 model (the dashboard takes
 * `earlier` from here once; the overlay uses this match only). Earlier: the event's other 14-1 matches that
 * became a table's current match no later than this one, in which the player (by name, as the event copies it
 * from the set-up) played either side. A match on no event: `earlier` is null for both players.
 * → 200 `{id, version, whatItTakes, earlier: [InningsRecord | null, InningsRecord | null], earlierMatches: string[]}`;
 * 404 `not-found` for an unknown match.
 */
import type { Response, Router } from 'express';
import type { Pair } from '../../../shared/protocol/setup';
import { matchRecords, whatItTakes, type InningsRecord } from '../../../shared/win-probability';
import type { EventService } from '../../events/service';
import type { MatchService } from '../../matches/service';
import { sendError } from './errors';

/** What the odds route reads: the matches and the events. */
export interface OddsRoutesOptions {
  matches: MatchService;
  events: EventService;
}

/** The earlier matches' innings of each player of match `id` (null when none), and the ids of the matches read. */
export async function earlierInnings(
  opts: OddsRoutesOptions,
  id: string,
  players: Pair<string>,
): Promise<{ earlier: Pair<InningsRecord | null>; used: string[] }> {
  const sums: [InningsRecord | null, InningsRecord | null] = [null, null];
  const used = new Set<string>();
  for (const eventId of await opts.events.eventsOfMatch(id)) {
    const ev = await opts.events.view(eventId);
    if (!ev) continue;
    const self = ev.matches.find((m) => m.id === id);
    const until = self?.startedAt ?? Number.POSITIVE_INFINITY;
    for (const m of ev.matches) {
      if (m.id === id || used.has(m.id) || m.startedAt === null || m.startedAt > until) continue;
      const cur = await opts.matches.current(m.id);
      if (!cur || cur.setup.discipline !== '14-1' || cur.snapshot.state.steps === 0) continue;
      const s = cur.snapshot.stats.players;
      const recs = matchRecords(cur.snapshot.state, cur.setup.startScore, [s[0], s[1]]);
      let took = false;
      for (const k of [0, 1] as const) {
        const side = cur.setup.players.indexOf(players[k]);
        if (side < 0) continue;
        const r = recs[side as 0 | 1];
        const sum = sums[k] ?? { points: 0, innings: 0, fouls: 0, threeFouls: 0 };
        sums[k] = {
          points: sum.points + r.points,
          innings: sum.innings + r.innings,
          fouls: (sum.fouls ?? 0) + (r.fouls ?? 0),
          threeFouls: (sum.threeFouls ?? 0) + (r.threeFouls ?? 0),
        };
        took = true;
      }
      if (took) used.add(m.id);
    }
  }
  return { earlier: sums, used: [...used] };
}

/** Mount `GET /matches/:id/odds.json` on the API router. */
export function oddsRoutes(r: Router, opts: OddsRoutesOptions): void {
  r.get('/matches/:id/odds.json', async (req, res: Response) => {
    const cur = await opts.matches.current(req.params.id);
    if (!cur) return sendError(res, { code: 'not-found', message: `matchId: no match "${req.params.id}"`, field: 'matchId' });
    const { earlier, used } = await earlierInnings(opts, req.params.id, cur.setup.players);
    const s = cur.snapshot.stats.players;
    res.json({
      id: req.params.id,
      version: cur.snapshot.version,
      whatItTakes: whatItTakes(cur.snapshot.state, cur.setup, { stats: [s[0], s[1]], earlier }),
      earlier,
      earlierMatches: used,
    });
  });
}
