/**
 * The draw page's words for a match's state (web/src/draw/): kept apart from lib/draw-layout.ts, which the OBS draw
 * graphics share, so their bundle does not take the pages' language tables (overlay/budget.ts
 * DRAW_OVERLAY_JS_CEILING).
 */
import type { DrawMatchView } from '../../../shared/draw/state';
import { type Lang, t } from '../lib/i18n-pages';

/**
 * The state line under a draw match on the draw page, in `lang`: on which table it is live, a walkover or a
 * retirement, "Up next · Race to N" when ready, "Race to N" while it waits for its players; nothing for a match
 * decided, a bye, or a void one (a bye against a bye, a final reset not played): no race is played there.
 * `tables` maps table ids to their names.
 */
export function matchStatusText(m: DrawMatchView, tables: ReadonlyMap<string, string>, lang: Lang): string {
  if (m.status === 'playing') return t(lang, 'draw.onTable', { table: m.table ? (tables.get(m.table) ?? m.table) : '' });
  if (m.result?.kind === 'walkover') return t(lang, 'draw.walkover');
  if (m.result?.kind === 'retired') return t(lang, 'draw.retired');
  if (m.status === 'ready') return `${t(lang, 'draw.ready')} · ${t(lang, 'draw.race', { n: m.race })}`;
  if (m.status === 'done' || m.status === 'bye' || m.status === 'void') return '';
  return t(lang, 'draw.race', { n: m.race });
}
