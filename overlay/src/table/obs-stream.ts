/**
 * What the table overlay tells cuecast about OBS (issue 28), through the browser source's `window.obsstudio`:
 * - the stream start: when OBS fires `obsStreamingStarted` (or `obsRecordingStarted`, when no streaming start was
 *   reported from this page), the page reports the server's time of it for its table
 *   (`PUT /api/events/<id>/tables/<table>/stream-start`, with the event's organiser token from the address's
 *   `#token=`), so the table's `chapters.txt` starts at 0:00 of the video. OBS's `getStatus` at load says whether
 *   OBS is already streaming or recording: then the start is not known here (it happened before the page), and
 *   `debug=1` says to set it on the dashboard;
 * - the replay buffer (`replay=rackwon,highrun`): on each chosen moment of the table's current match (its
 *   highlights, shared/highlights.ts) the page asks OBS to save the replay buffer (`saveReplayBuffer`, which needs
 *   the source's page permission "Basic access to OBS" or more: control level ≥ {@link OBS_BASIC}).
 * Outside OBS, without a token, or without the permission, nothing is sent and nothing throws; what went wrong is
 * kept for the debug chip (`warnings`).
 */
import type { HighlightKind } from '../../../shared/highlights';

/** The part of obs-browser's `window.obsstudio` this module uses. */
export interface ObsStream {
  getStatus(cb: (status: { streaming?: boolean; recording?: boolean; replaybuffer?: boolean }) => void): void;
  getControlLevel(cb: (level: number) => void): void;
  saveReplayBuffer(): void;
}

/** The control level obs-browser needs for `saveReplayBuffer` (BASIC: "Basic access to OBS"). */
export const OBS_BASIC = 3;

/** The moment names `replay=` takes, and the highlight kinds each stands for. */
export const REPLAY_MOMENTS: Record<string, readonly HighlightKind[]> = {
  rackwon: ['rack-won'],
  matchwon: ['match-won'],
  highrun: ['match-high-run', 'event-high-run'],
  run: ['run'],
  century: ['century'],
  thirdfoul: ['third-foul'],
  timefoul: ['time-foul'],
  hillhill: ['hill-hill'],
  comeback: ['comeback'],
  clinched: ['clinched-61'],
};

/** The `replay=` list: the highlight kinds chosen, and the names not known (for `debug=1`, as `replay=name`). */
export function parseReplay(search: string): { kinds: Set<HighlightKind>; unknown: string[] } {
  const raw = new URLSearchParams(search).get('replay') ?? '';
  const kinds = new Set<HighlightKind>();
  const unknown: string[] = [];
  for (const part of raw.split(',')) {
    const name = part.trim().toLowerCase();
    if (!name) continue;
    const k = REPLAY_MOMENTS[name];
    if (k) k.forEach((x) => kinds.add(x));
    else unknown.push(`replay=${part.trim()}`);
  }
  return { kinds, unknown };
}

/** What the page needs to report a stream start. */
export interface StreamReporter {
  /** Stop listening to OBS. */
  stop(): void;
}

/**
 * Listen to OBS's streaming and recording starts and report each for table `table` of event `eventId`: `put` sends
 * the body `{at, source}` (at: server time, from `now`). `warn` hears what cannot be done (no OBS token, OBS
 * already streaming at load, a refusal). No `window.obsstudio`: nothing happens.
 */
export function reportStreamStarts(
  opts: {
    token: string | null;
    now: () => number;
    put: (body: { at: number; source: 'streaming' | 'recording' }) => Promise<string | null>;
    warn: (w: string) => void;
  },
  obs: Partial<ObsStream> | undefined = (globalThis as { obsstudio?: Partial<ObsStream> }).obsstudio,
  target: Pick<EventTarget, 'addEventListener' | 'removeEventListener'> = globalThis as unknown as EventTarget,
): StreamReporter {
  if (!obs) return { stop() {} };
  let streamingReported = false;
  const send = (source: 'streaming' | 'recording') => {
    if (source === 'recording' && streamingReported) return;
    if (!opts.token) {
      opts.warn('stream start: no #token= (the organiser token) in the address; not reported');
      return;
    }
    if (source === 'streaming') streamingReported = true;
    void opts.put({ at: opts.now(), source }).then((err) => err && opts.warn(`stream start: ${err}`));
  };
  const onStreaming = () => send('streaming');
  const onRecording = () => send('recording');
  target.addEventListener('obsStreamingStarted', onStreaming);
  target.addEventListener('obsRecordingStarted', onRecording);
  try {
    obs.getStatus?.((s) => {
      if (s?.streaming || s?.recording) opts.warn('stream start: OBS was already live when this page loaded; set the start on the dashboard');
    });
  } catch {
    // Not OBS after all.
  }
  return {
    stop() {
      target.removeEventListener('obsStreamingStarted', onStreaming);
      target.removeEventListener('obsRecordingStarted', onRecording);
    },
  };
}

/** Ask OBS to save its replay buffer when the control level allows it; never throws. */
export function saveReplay(obs: Partial<ObsStream> | undefined = (globalThis as { obsstudio?: Partial<ObsStream> }).obsstudio): void {
  try {
    if (!obs || typeof obs.getControlLevel !== 'function') return;
    obs.getControlLevel((level) => {
      try {
        if (typeof level === 'number' && level >= OBS_BASIC && typeof obs.saveReplayBuffer === 'function') obs.saveReplayBuffer();
      } catch {
        // OBS refused: nothing saved; the overlay carries on.
      }
    });
  } catch {
    // Not OBS.
  }
}

/**
 * The replay trigger: given the highlights of the current match at each version, true when a highlight of a
 * chosen kind was made by that very version (a new moment seen live; what the page finds at load saves nothing).
 */
export function replayTrigger(
  kinds: ReadonlySet<HighlightKind>,
): (matchId: string, version: number, marks: readonly { kind: HighlightKind; version: number }[]) => boolean {
  let first: string | null = null;
  return (matchId, version, marks) => {
    const boot = first !== matchId;
    first = matchId;
    if (boot || kinds.size === 0) return false;
    return marks.some((m) => m.version === version && kinds.has(m.kind));
  };
}
