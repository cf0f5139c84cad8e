/**
 * The director's link to OBS through obs-browser's `window.obsstudio` (a custom browser dock or a browser source):
 * the control level the page was given, OBS's scene list and program scene, and the scene switch. Reading the
 * scenes needs "Read access to user information" (level 2); switching needs "Advanced access to OBS" (level 4,
 * {@link OBS_ADVANCED}). Every call is guarded: outside OBS, with a function missing or throwing, nothing breaks.
 */

/** The part of obs-browser's `window.obsstudio` the director uses. */
export interface ObsStudioApi {
  pluginVersion?: string;
  /** 0 none, 1 read OBS, 2 read user information, 3 basic, 4 advanced, 5 all. */
  getControlLevel(cb: (level: number) => void): void;
  getScenes(cb: (scenes: string[]) => void): void;
  getCurrentScene(cb: (scene: { name: string }) => void): void;
  setCurrentScene(name: string): void;
}

/** The control level `setCurrentScene` needs ("Advanced access to OBS"). */
export const OBS_ADVANCED = 4;
/** The control level `getScenes` and `getCurrentScene` need ("Read access to user information"). */
export const OBS_READ_USER = 2;

/** What the page knows of OBS. */
export interface ObsInfo {
  /** `window.obsstudio` is there (the page runs in OBS). */
  present: boolean;
  /** The control level, null until OBS answered (or outside OBS). */
  level: number | null;
  /** OBS's scene names, null when they cannot be read (type the names instead). */
  scenes: string[] | null;
  /** The program scene, null when not known. */
  current: string | null;
}

/** The page's `window.obsstudio`, if any. */
export function obsOf(w: unknown = globalThis): Partial<ObsStudioApi> | null {
  const o = (w as { obsstudio?: unknown }).obsstudio;
  return o && typeof o === 'object' ? (o as Partial<ObsStudioApi>) : null;
}

/** Call `fn` and swallow what OBS throws. */
function guarded(fn: () => void): void {
  try {
    fn();
  } catch {
    /* OBS refused or is not OBS after all */
  }
}

/**
 * Ask OBS for the control level, then (when allowed) the scenes and the program scene; `onInfo` hears each
 * answer, and every program scene change after (the `obsSceneChanged` event). Returns the function that stops listening.
 */
export function watchObs(onInfo: (info: ObsInfo) => void, obs: Partial<ObsStudioApi> | null = obsOf()): () => void {
  let info: ObsInfo = { present: !!obs, level: null, scenes: null, current: null };
  const tell = (next: Partial<ObsInfo>) => {
    info = { ...info, ...next };
    onInfo(info);
  };
  tell({});
  if (!obs) return () => {};
  const refresh = () =>
    guarded(() =>
      obs.getControlLevel?.((level) => {
        tell({ level: typeof level === 'number' ? level : 0 });
        if (typeof level !== 'number' || level < OBS_READ_USER) return;
        guarded(() => obs.getScenes?.((scenes) => Array.isArray(scenes) && tell({ scenes: scenes.filter((s) => typeof s === 'string') })));
        guarded(() => obs.getCurrentScene?.((scene) => tell({ current: typeof scene?.name === 'string' ? scene.name : null })));
      }),
    );
  refresh();
  const onScene = (e: Event) => {
    const name = (e as CustomEvent<{ name?: unknown }>).detail?.name;
    if (typeof name === 'string') tell({ current: name });
  };
  // The scene list changes when the producer adds or renames a scene.
  const onList = () => refresh();
  addEventListener('obsSceneChanged', onScene);
  addEventListener('obsSceneListChanged', onList);
  return () => {
    removeEventListener('obsSceneChanged', onScene);
    removeEventListener('obsSceneListChanged', onList);
  };
}

/** Switch OBS's program to scene `name`; false when the page cannot (no OBS, no function, or OBS threw). */
export function setScene(name: string, obs: Partial<ObsStudioApi> | null = obsOf()): boolean {
  if (!obs || typeof obs.setCurrentScene !== 'function' || !name) return false;
  try {
    obs.setCurrentScene(name);
    return true;
  } catch {
    return false;
  }
}
