/**
 * Helpers for draw suites over the services (tests/helpers/services.ts): wait until a draw's reactions and
 * autopilot have settled, read a draw, and keep the scorer tokens of the matches the draw service starts.
 */
import type { DrawInfo } from '../../server/draws/service';
import type { Services } from './services';

/** Let the draw of `eventId` settle: results that flowed in, autopilot's placements, the step reactions. */
export async function quiet(s: Services, eventId: string): Promise<void> {
  for (let i = 0; i < 5; i++) {
    await new Promise((r) => setImmediate(r));
    await s.draws.settled(eventId);
    await s.reactions.settled();
  }
}

/** The draw of `eventId` (throws when there is none). */
export async function drawOf(s: Services, eventId: string): Promise<DrawInfo> {
  const res = await s.draws.get(eventId);
  if (!res.ok) throw new Error(res.error.message);
  return res.draw;
}

/**
 * The scorer token of every match the draw service starts from now on (match id → token), as the table's tablet
 * would hold them: autopilot hands no token out, so `startDrawMatch` is wrapped to keep them.
 */
export function captureTokens(s: Services): Map<string, string> {
  const tokens = new Map<string, string>();
  const start = s.events.startDrawMatch.bind(s.events);
  s.events.startDrawMatch = async (...args) => {
    const made = await start(...args);
    if (made.ok) tokens.set(made.match.id, made.match.scorerToken);
    return made;
  };
  return tokens;
}
