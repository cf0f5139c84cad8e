/** The set-up forms' shot clock (web/src/launcher/clock-choice.ts): off, presets, custom seconds and their bounds. */
import { describe, expect, test } from 'vitest';
import { CLOCK_PRESETS, shotClockSettingsProblem } from '../../shared/shot-clock';
import { clockBody, customClock, defaultClockForm } from '../../web/src/launcher/clock-choice';
import { t } from '../../web/src/lib/i18n-pages';

describe('the clock field of a set-up form', () => {
  test('off leaves the field out; a preset is sent by name', () => {
    expect(clockBody(defaultClockForm())).toEqual({ ok: true, clock: null });
    expect(clockBody({ ...defaultClockForm(), choice: 'pro' })).toEqual({ ok: true, clock: { preset: 'pro' } });
    expect(clockBody({ ...defaultClockForm(), choice: 'league' })).toEqual({ ok: true, clock: { preset: 'league' } });
  });
  test('custom seconds: every shot the same allowance, one extension per match (none at 0 s), settings the server accepts', () => {
    const r = clockBody({ choice: 'custom', shotSeconds: 35, extensionSeconds: 20 });
    expect(r).toMatchObject({
      ok: true,
      clock: { settings: { shotSeconds: 35, firstShotSeconds: 35, pushOutSeconds: 35, extensionSeconds: 20, extensionsPerPlayer: 1 } },
    });
    expect(customClock(3, 0)).toMatchObject({ extensionsPerPlayer: 0, warningSeconds: 3, urgentSeconds: 3 });
    for (const s of [1, 3, 8, 60, 3600]) expect(shotClockSettingsProblem(customClock(s, 0))).toBeNull();
    expect(customClock(45, 45)).toEqual({ ...CLOCK_PRESETS.league });
  });
  test('bad seconds name the field and say the bound in every language', () => {
    expect(clockBody({ choice: 'custom', shotSeconds: 0, extensionSeconds: 10 })).toMatchObject({
      ok: false,
      field: 'clock.shotSeconds',
      key: 'formClockSeconds',
    });
    expect(clockBody({ choice: 'custom', shotSeconds: 2.5, extensionSeconds: 10 })).toMatchObject({ ok: false, field: 'clock.shotSeconds' });
    expect(clockBody({ choice: 'custom', shotSeconds: 30, extensionSeconds: -1 })).toMatchObject({
      ok: false,
      field: 'clock.extensionSeconds',
      key: 'formClockExtension',
    });
    expect(clockBody({ choice: 'custom', shotSeconds: 4000, extensionSeconds: 0 })).toMatchObject({ ok: false, field: 'clock.shotSeconds' });
    expect(t('en', 'formClockSeconds', { max: 3600 })).toContain('3600');
    expect(t('ja', 'formClockSeconds', { max: 3600 })).toContain('3600');
    expect(t('zh-TW', 'formClockExtension', { max: 3600 })).toContain('3600');
  });
});
