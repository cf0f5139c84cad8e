import { defineConfig } from 'vite';
import { svelte } from '@sveltejs/vite-plugin-svelte';
import { here, websocketOnly } from './vite.shared.ts';

/**
 * One Vite app, one HTML entry per page so each page ships only its own code. The server maps routes to these
 * files: `/` → index.html (launcher), `/scorer/:id` → scorer.html, `/dashboard/:id` → dashboard.html,
 * `/watch` and `/watch/:id` → watch.html, and `/overlay/:id` → overlay.html, which is built on its own by
 * vite.overlay.config.ts (run after this one, into the same dist/) so its bundle holds only what it uses.
 */
export default defineConfig({
  root: here('.'),
  base: '/',
  plugins: [websocketOnly(), svelte()],
  build: {
    outDir: here('./dist'),
    emptyOutDir: true,
    target: 'es2022',
    rollupOptions: {
      input: {
        index: here('./index.html'),
        scorer: here('./scorer.html'),
        dashboard: here('./dashboard.html'),
        watch: here('./watch.html'),
      },
    },
  },
});
