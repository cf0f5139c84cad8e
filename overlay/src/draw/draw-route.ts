/** The address of the OBS draw graphics (pure): which graphic, which event, which group. */

/** `bracket` (`/overlay/draw/<eventId>`) or `standings` (`/overlay/standings/<eventId>`), its event (null: none named) and `?group=`. */
export interface DrawOverlayRoute {
  view: 'bracket' | 'standings';
  eventId: string | null;
  group: string | null;
}

/** The route of `loc`. */
export function drawOverlayRoute(loc: { pathname: string; search: string }): DrawOverlayRoute {
  const m = /^\/overlay\/(draw|standings)(?:\/([^/]+))?\/?$/.exec(loc.pathname);
  const group = new URLSearchParams(loc.search).get('group');
  return {
    view: m?.[1] === 'standings' ? 'standings' : 'bracket',
    eventId: m?.[2] ? decodeURIComponent(m[2]) : null,
    group: group && /^[A-Z]{1,2}$/.test(group.toUpperCase()) ? group.toUpperCase() : null,
  };
}
