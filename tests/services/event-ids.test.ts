/**
 * eventId idempotency on one instance (the match service over a store): the same eventId with the same step is
 * a retry (the original result, `duplicate: true`, key order aside); the same eventId with a different
 * step is refused with `event-id-reused` naming the eventId and its version, and appends nothing — also after a
 * restart (new services over the same store), when the ids come from the stored log. Service level, in-memory
 * stores; how REST answers each (201, 200, 409) is tests/server/http.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { legalSteps, SETUP } from '../helpers/server';
import { services } from '../helpers/services';

const steps = legalSteps(3);
/** A legal opening step that is not steps[0]. */
const SAFETY_BREAK = { shot: { call: 'safety', breakRails: { objectBalls: 2, cueBall: true } } };

describe('eventId reuse on one instance', () => {
  it('same eventId + same step is a retry; + another step is refused with event-id-reused and records nothing', async () => {
    let s = services();
    const m = await s.matches.create(SETUP);
    const record = (req: { eventId: string; expectedVersion?: number; step: unknown }) => s.matches.record(m.id, m.scorerToken, req);
    expect(steps[0]).not.toEqual(SAFETY_BREAK);

    // A Companion button with a fixed eventId: the first press records.
    const first = await record({ eventId: 'button-1', step: steps[0] });
    expect(first).toMatchObject({ ok: true, version: 1, duplicate: false });

    // The same step again, keys in another order: the idempotent retry (duplicate, the original state).
    const shot = (steps[0] as { shot: Record<string, unknown> }).shot;
    const reordered = { shot: Object.fromEntries(Object.entries(shot).reverse()) };
    expect(Object.keys(shot).length).toBeGreaterThan(1);
    expect(JSON.stringify(reordered)).not.toBe(JSON.stringify(steps[0]));
    const retry = await record({ step: reordered, eventId: 'button-1' });
    expect(retry).toMatchObject({ ok: true, version: 1, duplicate: true });
    if (retry.ok && first.ok) expect(retry.state).toEqual(first.state);

    // The second press with the same eventId but another step: refused, nothing appended.
    const reused = await record({ eventId: 'button-1', step: SAFETY_BREAK });
    expect(reused).toMatchObject({ ok: false, error: { code: 'event-id-reused', field: 'eventId' } });
    if (!reused.ok) {
      expect(reused.error.message).toContain('"button-1"');
      expect(reused.error.message).toContain('version 1');
    }
    expect((reused as { duplicate?: boolean }).duplicate).toBeUndefined();

    // After more steps the message still names the version it was recorded at.
    expect(await record({ eventId: 'e2', expectedVersion: 1, step: steps[1] })).toMatchObject({ ok: true, version: 2 });
    const laterReused = await record({ eventId: 'button-1', step: steps[2] });
    expect(laterReused).toMatchObject({ ok: false, error: { code: 'event-id-reused', field: 'eventId' } });
    if (!laterReused.ok) expect(laterReused.error.message).toContain('version 1');
    expect(await record({ eventId: 'button-1', step: steps[0] })).toMatchObject({ ok: true, version: 1, duplicate: true });

    const log = await s.matches.events(m.id);
    expect(log!.events.map((e) => e.eventId)).toEqual(['button-1', 'e2']);
    expect(log!.events[0]!.step).toEqual(steps[0]);
    await expect.poll(() => s.pushed.matches.length).toBe(2);
    expect(s.pushed.matches.map((p) => p.full.version)).toEqual([1, 2]);

    // After a restart (new services over the same store) the ids come from the stored log: same answers.
    s = services(s.store);
    expect(await record({ eventId: 'e2', step: steps[2] })).toMatchObject({ ok: false, error: { code: 'event-id-reused', field: 'eventId' } });
    expect(await record({ eventId: 'e2', expectedVersion: 1, step: steps[1] })).toMatchObject({ ok: true, version: 2, duplicate: true });
    expect((await s.matches.events(m.id))!.version).toBe(2);
  });
});
