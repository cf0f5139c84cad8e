// The overlays' Svelte set-up is the other pages' (TypeScript in components): one file, web/svelte.config.js.
export { default } from '../web/svelte.config.js';
