/**
 * The set-up of a match made for a table of an event: the event's discipline defaults, what the organiser
 * overrides, and the players picked from the roster.
 */
import { RulesError } from '../../shared/protocol/errors';
import type { EventInfo, RosterPlayer } from '../../shared/protocol/event';
import type { MatchSetup, Pair } from '../../shared/protocol/setup';
import { parseSetup } from '../protocol/setup-schemas';
import { parseClockChoice } from '../protocol/shot-clock-schemas';
import type { ShotClockSettings } from '../../shared/shot-clock';

/**
 * The checked set-up of a new match for an event: the event's defaults (discipline, ruleset, options,
 * targets), overridden field by field by `setup` (naming another discipline drops the defaults' ruleset,
 * options and targets, which belong to the first), with the players picked from the roster by `playerIds`
 * (their names, countries and short names) or named in `setup.players`.
 * @throws RulesError `invalid-event` (`playerIds.<i>`: unknown, the same player twice, or both ways of naming
 *   players at once) or `invalid-setup` (`setup.<field>`, from the set-up parser).
 */
export function tableMatchSetup(event: EventInfo, playerIds: Pair<string> | undefined, setup: Record<string, unknown> = {}): MatchSetup {
  // The clock is not part of the set-up: the event service turns it on once the match exists (`tableMatchClock`).
  const { clock: _clock, ...d } = event.defaults;
  const sameDiscipline = setup.discipline === undefined || setup.discipline === d.discipline;
  const base: Record<string, unknown> = sameDiscipline ? { ...d } : {};
  if (sameDiscipline && d.options && setup.options && typeof setup.options === 'object') {
    setup = { ...setup, options: { ...d.options, ...(setup.options as object) } };
  }
  const input: Record<string, unknown> = { ...base, ...setup };
  if (playerIds) {
    if (setup.players !== undefined)
      throw new RulesError('invalid-event', 'playerIds: name the players either by roster id or in setup.players, not both', 'playerIds');
    const picked = playerIds.map((id, i) => {
      const p = event.roster.find((r) => r.id === id);
      if (!p) throw new RulesError('invalid-event', `playerIds.${i}: no player "${id}" on the roster`, `playerIds.${i}`);
      return p;
    }) as Pair<RosterPlayer>;
    if (picked[0].id === picked[1].id) throw new RulesError('invalid-event', 'playerIds.1: the same player twice', 'playerIds.1');
    input.players = [picked[0].name, picked[1].name];
    if (setup.countries === undefined && picked.some((p) => p.country)) input.countries = [picked[0].country ?? null, picked[1].country ?? null];
    if (setup.shortNames === undefined && picked.some((p) => p.short)) input.shortNames = [picked[0].short ?? null, picked[1].short ?? null];
  } else if (setup.players === undefined) {
    throw new RulesError('invalid-event', 'playerIds: name the players: two roster ids in playerIds, or two names in setup.players', 'playerIds');
  }
  return parseSetup(input);
}

/**
 * The shot clock settings of a new match for an event: the event's default clock (null: none, or `off`). The
 * defaults were checked when they were stored.
 * @throws RulesError `invalid-event` naming `defaults.clock.<field>` for a stored choice no longer valid.
 */
export function tableMatchClock(event: EventInfo): ShotClockSettings | null {
  const c = event.defaults.clock;
  return c === undefined ? null : parseClockChoice(c, 'defaults.clock', 'invalid-event');
}
