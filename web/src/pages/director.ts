/**
 * The auto-director: `/director/<eventId>` (web/src/director/DirectorApp.svelte), an OBS custom browser dock or a
 * browser source with "Advanced access to OBS". `?lang=en|ja|zh-TW` (else the last choice, else the browser
 * language); `?hold=<s>` the first hold time (3–600, default 20; the page's field and this browser keep it after),
 * `?settle=<s>` how long after a recorded step a table is between shots (1–60, default 8), `?margin=<points>`
 * how far ahead the best table must be (0–100, default 10), `?tv=<table id>` the TV table (else the page's pick, else
 * the event's featured table when it names one); `?debug=1` lists what was wrong in the address;
 * `?clock=test` (tests) gives the page a clock that moves only by `window.cuecastDirectorClock.advance(ms)`.
 */
import { mount } from 'svelte';
import '../styles/page.css';
import { createClient } from '../lib/client';
import { pageLang, t } from '../lib/i18n-pages';
import DirectorApp from '../director/DirectorApp.svelte';
import { directorEvent, directorParams, pageClock } from '../director/director-page';

const lang = pageLang(location.search, navigator.language);
document.documentElement.lang = lang;
const target = document.getElementById('app')!;
const eventId = directorEvent(location);
const params = directorParams(location.search);
const clock = pageClock(params.testClock);
if (clock.test) (window as unknown as { cuecastDirectorClock: typeof clock }).cuecastDirectorClock = clock;
if (!eventId) {
  const p = document.createElement('p');
  p.dataset.f = 'missing';
  p.className = 'card';
  p.textContent = t(lang, 'dir.missing');
  target.append(p);
} else mount(DirectorApp, { target, props: { client: createClient(), eventId, lang, params, clock } });
