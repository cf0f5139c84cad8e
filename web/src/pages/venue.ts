/**
 * The venue screens: `/venue/<eventId>` (the hall board) and `/tableside/<eventId>/<table>` (the table screen).
 * `?lang=en|ja|zh-TW` (else the last choice, else the browser language); the board's `?every=<seconds>` (5–120,
 * default 12) is how long a page of tables stays when they do not fit on one.
 */
import { mount } from 'svelte';
import '../styles/page.css';
import '../styles/venue.css';
import { createClient } from '../lib/client';
import { pageLang } from '../lib/i18n-pages';
import { numberParam } from '../lib/live-route';
import VenueApp from '../venue/VenueApp.svelte';
import { venueRoute } from '../venue/venue';

const lang = pageLang(location.search, navigator.language);
document.documentElement.lang = lang;
const every = numberParam(new URLSearchParams(location.search).get('every'), 12, 5, 120);
mount(VenueApp, { target: document.getElementById('app')!, props: { route: venueRoute(location), lang, every, client: () => createClient() } });
