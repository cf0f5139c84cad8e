/**
 * OBS scene switching from the table overlay (`/overlay/table/<eventId>/<table>?obsWon=<scene>&obsIntro=<scene>`):
 * the page asks OBS, through the browser source's `window.obsstudio` API (obs-browser's JS bindings), to switch
 * to the scene named by `obsWon` when the table's current match is won while the page watches, and to the scene
 * named by `obsIntro` each time an intro card goes up on the table (a match starts on it, or the producer's intro
 * button). It switches only when the browser source's *Page permissions* allow changing scenes ("Advanced access
 * to OBS" or "Full access": control level ≥ {@link OBS_ADVANCED}, read with `getControlLevel` at each switch).
 * Outside OBS (no `window.obsstudio`), without a parameter, or without the permission it does nothing, and it
 * never throws. What the page finds already so when it loads (a won match, an intro card up) switches nothing:
 * reloading the browser source does not change the scene.
 */

/** The scene names from the URL; '' = no switch for that moment. */
export interface ObsScenes {
  won: string;
  intro: string;
}

/** The part of obs-browser's `window.obsstudio` this page uses. */
export interface ObsStudio {
  /** Calls back with the browser source's control level: 0 none, 1 read OBS, 2 read user, 3 basic, 4 advanced, 5 all. */
  getControlLevel(cb: (level: number) => void): void;
  /** Switch OBS's program to the scene `name` (needs level 4, advanced). */
  setCurrentScene(name: string): void;
}

/** The control level obs-browser needs for `setCurrentScene` (ADVANCED: "Advanced access to OBS"). */
export const OBS_ADVANCED = 4;

/** Longest scene name taken from the URL (characters); a longer value is cut, not refused. */
const NAME_MAX = 200;

/** The scenes named by `obsWon` and `obsIntro` in `search`, or null when neither is given (no switching). */
export function parseObsScenes(search: string): ObsScenes | null {
  const q = new URLSearchParams(search);
  const name = (k: string) => (q.get(k) ?? '').trim().slice(0, NAME_MAX);
  const scenes = { won: name('obsWon'), intro: name('obsIntro') };
  return scenes.won || scenes.intro ? scenes : null;
}

/**
 * Ask OBS (`obs`, by default the page's `window.obsstudio`) to switch to scene `name` when its control level
 * allows it. No OBS, a missing function, a level too low, or an error inside OBS's API: nothing happens.
 */
export function switchScene(name: string, obs: Partial<ObsStudio> | undefined = (globalThis as { obsstudio?: Partial<ObsStudio> }).obsstudio): void {
  try {
    if (!name || !obs || typeof obs.getControlLevel !== 'function') return;
    obs.getControlLevel((level) => {
      try {
        if (typeof level === 'number' && level >= OBS_ADVANCED && typeof obs.setCurrentScene === 'function') obs.setCurrentScene(name);
      } catch {
        // OBS refused: the scene stays; the overlay carries on.
      }
    });
  } catch {
    // Not OBS after all: nothing to switch.
  }
}

/** Tells the scene switcher what the table overlay sees. */
export interface ObsTriggers {
  /** The current match `matchId` (its latest state's `winner`, or null): a change to won switches to the won scene. */
  match(matchId: string, winner: string | null): void;
  /** The table's cards (`seq` grows at every card shown): a new intro card switches to the intro scene. */
  cards(show: string, seq: number): void;
}

/**
 * The moments of a table overlay that switch scenes, calling `switchTo` with the scene's name: the match won
 * (its winner was null in an earlier state of the same match) and a new intro card (a `seq` above the first one
 * seen). The first state of each match and the first cards seen set where the page starts and switch nothing.
 */
export function obsTriggers(scenes: ObsScenes, switchTo: (name: string) => void = switchScene): ObsTriggers {
  let matchId: string | null = null;
  let won = false;
  let seq: number | null = null;
  return {
    match(id, winner) {
      const before = matchId === id ? won : true;
      matchId = id;
      won = winner !== null;
      if (won && !before && scenes.won) switchTo(scenes.won);
    },
    cards(show, s) {
      const fresh = seq !== null && s > seq;
      seq = seq === null ? s : Math.max(seq, s);
      if (fresh && show === 'intro' && scenes.intro) switchTo(scenes.intro);
    },
  };
}
