/**
 * The module's actions and feedbacks as Companion defines them, each a thin call into `CuecastControl` (./control.ts)
 * or a feedback state from ./values.ts. Kept apart from main.ts (which starts the module under Companion) so the
 * definitions read as the list of what the module offers.
 */
import { combineRgb, type CompanionActionDefinitions, type CompanionFeedbackDefinitions, type SomeCompanionFeedbackInputField } from '@companion-module/base';
import type { CardAction } from '../../shared/protocol/event';
import type { PlayerKey } from '../../shared/protocol/vocabulary';
import type { ShotClockAction } from '../../shared/shot-clock';
import { CARD_BUTTONS, CAPTION_MODES, type CaptionMode, type CuecastControl } from './control';
import { atTable, cardUp, clockWarning, onTwoFouls } from './values';

const PLAYER: SomeCompanionFeedbackInputField = { type: 'dropdown', id: 'player', label: 'Player', default: 'A', choices: [{ id: 'A', label: 'Player A' }, { id: 'B', label: 'Player B' }] };

const CARD_LABELS: Record<string, string> = {
  intro: 'Show the match intro', summary: 'Show the match summary', hide: 'Hide the card', 'toggle-intro': 'Toggle the intro',
  'toggle-summary': 'Toggle the summary', 'auto-on': 'Automatic cards on', 'auto-off': 'Automatic cards off',
};
const CLOCK_LABELS: Record<ShotClockAction, string> = { start: 'Start', pause: 'Pause', resume: 'Resume', reset: 'Reset', extension: 'Extension' };

/** The actions (ids: `card`, `caption`, `clock`, `start_next`, `undo_start`); `control()` is the connection now (null before the settings are valid). */
export function actionDefinitions(control: () => CuecastControl | null): CompanionActionDefinitions {
  const ctl = (): CuecastControl => {
    const c = control();
    if (!c) throw new Error('not connected: check the connection settings');
    return c;
  };
  return {
    card: {
      name: 'Card (intro, summary, hide, automatic cards)',
      options: [{ type: 'dropdown', id: 'action', label: 'Card', default: 'toggle-intro', choices: CARD_BUTTONS.map((a) => ({ id: a, label: CARD_LABELS[a] ?? a })) }],
      callback: async (e) => ctl().card(String(e.options.action) as CardAction),
    },
    caption: {
      name: 'Caption line (show, hide, toggle)',
      options: [{ type: 'dropdown', id: 'mode', label: 'Caption', default: 'toggle', choices: Object.keys(CAPTION_MODES).map((m) => ({ id: m, label: m[0]!.toUpperCase() + m.slice(1) })) }],
      callback: async (e) => ctl().caption(String(e.options.mode) as CaptionMode),
    },
    clock: {
      name: 'Shot clock (start, pause, resume, reset, extension)',
      options: [{ type: 'dropdown', id: 'action', label: 'Clock', default: 'start', choices: Object.entries(CLOCK_LABELS).map(([id, label]) => ({ id, label })) }],
      callback: async (e) => ctl().clock(String(e.options.action) as ShotClockAction),
    },
    start_next: { name: 'Start next match', options: [], callback: async () => ctl().startNext() },
    undo_start: { name: 'Undo start next match (within 5 minutes)', options: [], callback: async () => ctl().undoStart() },
  };
}

/** The feedbacks (ids: `at_table`, `two_fouls`, `clock_warning`, `card_up`), all boolean. */
export function feedbackDefinitions(control: () => CuecastControl | null): CompanionFeedbackDefinitions {
  const followed = () => control()?.state ?? null;
  const player = (v: unknown): PlayerKey => (v === 'B' ? 'B' : 'A');
  return {
    at_table: {
      type: 'boolean', name: 'Player at the table', options: [PLAYER],
      defaultStyle: { bgcolor: combineRgb(0, 120, 215), color: combineRgb(255, 255, 255) },
      callback: (fb) => { const f = followed(); return !!f && atTable(f, player(fb.options.player)); },
    },
    two_fouls: {
      type: 'boolean', name: 'Player on two fouls', options: [PLAYER],
      defaultStyle: { bgcolor: combineRgb(204, 0, 0), color: combineRgb(255, 255, 255) },
      callback: (fb) => { const f = followed(); return !!f && onTwoFouls(f, player(fb.options.player)); },
    },
    clock_warning: {
      type: 'boolean', name: 'Shot clock warning',
      options: [{ type: 'dropdown', id: 'level', label: 'From', default: 'warning', choices: [{ id: 'warning', label: 'Warning (amber) or worse' }, { id: 'urgent', label: 'Urgent (red) and expired' }] }],
      defaultStyle: { bgcolor: combineRgb(255, 153, 0), color: combineRgb(0, 0, 0) },
      callback: (fb) => { const f = followed(); return !!f && clockWarning(f, fb.options.level === 'urgent' ? 'urgent' : 'warning'); },
    },
    card_up: {
      type: 'boolean', name: 'Card up on the overlay',
      options: [{ type: 'dropdown', id: 'kind', label: 'Card', default: 'any', choices: [{ id: 'any', label: 'Any card' }, { id: 'intro', label: 'Match intro' }, { id: 'summary', label: 'Match summary' }] }],
      defaultStyle: { bgcolor: combineRgb(0, 153, 51), color: combineRgb(255, 255, 255) },
      callback: (fb) => {
        const kind = fb.options.kind === 'intro' || fb.options.kind === 'summary' ? fb.options.kind : 'any';
        return cardUp(followed()?.table?.cards ?? null, kind);
      },
    },
  };
}
