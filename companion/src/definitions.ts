/**
 * The module's actions, feedbacks and presets (ready-made buttons) as Companion defines them, each action a thin call
 * into `CuecastControl` (./control.ts), each feedback a state from ./values.ts. Kept apart from main.ts (which starts the module under Companion) so the
 * definitions read as the list of what the module offers.
 */
import {
  combineRgb,
  type CompanionActionDefinitions,
  type CompanionButtonPresetDefinition,
  type CompanionFeedbackDefinitions,
  type CompanionPresetDefinitions,
  type SomeCompanionFeedbackInputField,
} from '@companion-module/base';
import type { CardAction } from '../../shared/protocol/event';
import type { PlayerKey } from '../../shared/protocol/vocabulary';
import type { ShotClockAction } from '../../shared/shot-clock';
import { CARD_BUTTONS, CAPTION_MODES, type CaptionMode, type CuecastControl } from './control';
import { atTable, cardUp, clockWarning, onTwoFouls } from './values';

const PLAYER: SomeCompanionFeedbackInputField = {
  type: 'dropdown',
  id: 'player',
  label: 'Player',
  default: 'A',
  choices: [
    { id: 'A', label: 'Player A' },
    { id: 'B', label: 'Player B' },
  ],
};

const CARD_LABELS: Record<string, string> = {
  intro: 'Show the match intro',
  summary: 'Show the match summary',
  hide: 'Hide the card',
  'toggle-intro': 'Toggle the intro',
  'toggle-summary': 'Toggle the summary',
  'auto-on': 'Automatic cards on',
  'auto-off': 'Automatic cards off',
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
      options: [
        { type: 'dropdown', id: 'action', label: 'Card', default: 'toggle-intro', choices: CARD_BUTTONS.map((a) => ({ id: a, label: CARD_LABELS[a] ?? a })) },
      ],
      callback: async (e) => ctl().card(String(e.options.action) as CardAction),
    },
    caption: {
      name: 'Caption line (show, hide, toggle)',
      options: [
        {
          type: 'dropdown',
          id: 'mode',
          label: 'Caption',
          default: 'toggle',
          choices: Object.keys(CAPTION_MODES).map((m) => ({ id: m, label: m[0]!.toUpperCase() + m.slice(1) })),
        },
      ],
      callback: async (e) => ctl().caption(String(e.options.mode) as CaptionMode),
    },
    clock: {
      name: 'Shot clock (start, pause, resume, reset, extension)',
      options: [
        { type: 'dropdown', id: 'action', label: 'Clock', default: 'start', choices: Object.entries(CLOCK_LABELS).map(([id, label]) => ({ id, label })) },
      ],
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
      type: 'boolean',
      name: 'Player at the table',
      options: [PLAYER],
      defaultStyle: { bgcolor: combineRgb(0, 120, 215), color: combineRgb(255, 255, 255) },
      callback: (fb) => {
        const f = followed();
        return !!f && atTable(f, player(fb.options.player));
      },
    },
    two_fouls: {
      type: 'boolean',
      name: 'Player on two fouls',
      options: [PLAYER],
      defaultStyle: { bgcolor: combineRgb(204, 0, 0), color: combineRgb(255, 255, 255) },
      callback: (fb) => {
        const f = followed();
        return !!f && onTwoFouls(f, player(fb.options.player));
      },
    },
    clock_warning: {
      type: 'boolean',
      name: 'Shot clock warning',
      options: [
        {
          type: 'dropdown',
          id: 'level',
          label: 'From',
          default: 'warning',
          choices: [
            { id: 'warning', label: 'Warning (amber) or worse' },
            { id: 'urgent', label: 'Urgent (red) and expired' },
          ],
        },
      ],
      defaultStyle: { bgcolor: combineRgb(255, 153, 0), color: combineRgb(0, 0, 0) },
      callback: (fb) => {
        const f = followed();
        return !!f && clockWarning(f, fb.options.level === 'urgent' ? 'urgent' : 'warning');
      },
    },
    card_up: {
      type: 'boolean',
      name: 'Card up on the overlay',
      options: [
        {
          type: 'dropdown',
          id: 'kind',
          label: 'Card',
          default: 'any',
          choices: [
            { id: 'any', label: 'Any card' },
            { id: 'intro', label: 'Match intro' },
            { id: 'summary', label: 'Match summary' },
          ],
        },
      ],
      defaultStyle: { bgcolor: combineRgb(0, 153, 51), color: combineRgb(255, 255, 255) },
      callback: (fb) => {
        const kind = fb.options.kind === 'intro' || fb.options.kind === 'summary' ? fb.options.kind : 'any';
        return cardUp(followed()?.table?.cards ?? null, kind);
      },
    },
  };
}

const WHITE = combineRgb(255, 255, 255);
const BLACK = combineRgb(0, 0, 0);

/** A preset button: `text` on black, pressing runs `actions`, with `feedbacks` (their default styles). */
function button(
  category: string,
  name: string,
  text: string,
  actions: { actionId: string; options: Record<string, string> }[],
  feedbacks: { feedbackId: string; options: Record<string, string> }[] = [],
): CompanionButtonPresetDefinition {
  return { type: 'button', category, name, style: { text, size: 'auto', color: WHITE, bgcolor: BLACK }, feedbacks, steps: [{ down: actions, up: [] }] };
}

/**
 * Ready-made buttons for the connection labelled `label` (their texts name its variables, `$(<label>:score_a)`):
 * each player's short name and score (lit while at the table, red on two fouls), the shot clock's seconds (amber from
 * the warning) with start, pause and extension buttons, the cards and caption toggles (lit while up or hidden), and
 * *Start next match*.
 */
export function presetDefinitions(label: string): CompanionPresetDefinitions {
  const v = (id: string) => `$(${label}:${id})`;
  const player = (p: 'A' | 'B') => {
    const k = p.toLowerCase();
    return button(
      'Players',
      `Player ${p}: short name and score`,
      `${v(`short_${k}`)}\n${v(`score_${k}`)}`,
      [],
      [
        { feedbackId: 'at_table', options: { player: p } },
        { feedbackId: 'two_fouls', options: { player: p } },
      ],
    );
  };
  return {
    player_a: player('A'),
    player_b: player('B'),
    run: button('Players', 'Run and race', `Run ${v('run')}\nRace ${v('race')}`, []),
    clock_start: button(
      'Shot clock',
      'Clock seconds: press to start',
      `${v('clock_seconds')}`,
      [{ actionId: 'clock', options: { action: 'start' } }],
      [{ feedbackId: 'clock_warning', options: { level: 'warning' } }],
    ),
    clock_pause: button('Shot clock', 'Pause the clock', 'Pause', [{ actionId: 'clock', options: { action: 'pause' } }]),
    clock_resume: button('Shot clock', 'Resume the clock', 'Resume', [{ actionId: 'clock', options: { action: 'resume' } }]),
    clock_reset: button('Shot clock', 'Reset the clock', 'Reset', [{ actionId: 'clock', options: { action: 'reset' } }]),
    extension: button('Shot clock', 'Extension (extensions left A / B)', `Ext\n${v('extensions_left_a')} / ${v('extensions_left_b')}`, [
      { actionId: 'clock', options: { action: 'extension' } },
    ]),
    intro: button(
      'Cards',
      'Toggle the match intro',
      'Intro',
      [{ actionId: 'card', options: { action: 'toggle-intro' } }],
      [{ feedbackId: 'card_up', options: { kind: 'intro' } }],
    ),
    summary: button(
      'Cards',
      'Toggle the match summary',
      'Summary',
      [{ actionId: 'card', options: { action: 'toggle-summary' } }],
      [{ feedbackId: 'card_up', options: { kind: 'summary' } }],
    ),
    caption: button('Cards', 'Toggle the caption line', 'Caption', [{ actionId: 'caption', options: { mode: 'toggle' } }]),
    start_next: button('Match', 'Start next match', `Next\n${v('next_a')}\n${v('next_b')}`, [{ actionId: 'start_next', options: {} }]),
  };
}
