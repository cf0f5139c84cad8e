/**
 * `/results/<eventId>`: an event's results page (issue 27 §6), live during the event and kept after it: final
 * standings, every match with its score and a link to its sheet, the event's high run and best average, and the
 * CSV and JSON downloads. `?lang=en|ja|zh-TW` (else the last choice, else the browser language).
 */
import { mount } from 'svelte';
import '../styles/page.css';
import '../styles/event.css';
import { createClient } from '../lib/client';
import { pageLang } from '../lib/i18n-pages';
import Results from '../results/Results.svelte';

const lang = pageLang(location.search, navigator.language);
document.documentElement.lang = lang;
const parts = location.pathname.split('/').filter(Boolean);
const eventId = parts[0] === 'results' && parts[1] ? decodeURIComponent(parts[1]) : null;
mount(Results, { target: document.getElementById('app')!, props: { eventId, lang, client: () => createClient() } });
