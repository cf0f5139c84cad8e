/** `/`: the launcher — create a match, list live matches with their page links and OBS URL copy buttons. */
import { mount } from 'svelte';
import { pageLang } from '../lib/i18n-pages';
import Launcher from '../launcher/Launcher.svelte';
import '../scorer/scorer.css';
import { localStore } from '../lib/storage';

const storage = localStore();
const lang = pageLang(location.search, navigator.language);
document.documentElement.lang = lang;
mount(Launcher, { target: document.getElementById('app')!, props: { lang, storage } });
