/**
 * The public live draw page: `/draw/<eventId>` (issue 27). `?lang=en|ja|zh-TW` (else the last choice, else the
 * browser language). The bracket (elimination) or the group tables (round robin, groups), live without a reload.
 */
import { mount } from 'svelte';
import '../styles/page.css';
import { createClient } from '../lib/client';
import { pageLang } from '../lib/i18n-pages';
import DrawApp from '../draw/DrawApp.svelte';

const lang = pageLang(location.search, navigator.language);
document.documentElement.lang = lang;
/** `/draw/<eventId>` → the event id, or null when the address names none. */
const match = /^\/draw\/([^/]+)\/?$/.exec(location.pathname);
const eventId = match ? decodeURIComponent(match[1]!) : null;
mount(DrawApp, { target: document.getElementById('app')!, props: { eventId, lang, client: () => createClient() } });
