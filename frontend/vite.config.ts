import preact from '@preact/preset-vite';
import { loadEnv } from 'vite';
import { defineConfig } from 'vitest/config';
import { precompress } from './build/precompress.ts';
import { firstPlacesPath } from './src/api/firstPlaces.ts';

// Relative asset paths: the same dist/ works at the API's root and from any CDN folder.
export default defineConfig(({ mode }) => {
  const apiBase = (loadEnv(mode, import.meta.dirname, 'VITE_').VITE_API_BASE ?? '').replace(/\/$/, '');
  return {
    base: './',
    plugins: [
      // Preact in React's place: the source keeps its React imports (react, react-dom/client, the JSX
      // runtime), aliased to preact/compat. The first load's script is a third of React's size, and on a
      // phone the largest paint waits for that script.
      preact(),
      precompress(),
      {
        // The landing page's list is its largest paint: fetching it alongside the script, not after, takes
        // a round trip off a phone's first screen. Same URL, mode and credentials as the app's own fetch.
        name: 'slots-preload-first-places',
        transformIndexHtml: () =>
          [firstPlacesPath].map((path) => ({
            tag: 'link', attrs: { rel: 'preload', as: 'fetch', href: `${apiBase}${path}`, crossorigin: 'anonymous' }, injectTo: 'head-prepend' as const,
          })),
      },
    ],
    build: {
      outDir: 'dist',
      emptyOutDir: true,
      // Everything the landing page runs in one script: left to itself, the bundler moves code the lazy
      // screens share with it (Preact, the texts) into extra chunks, and a phone fetches three files.
      rolldownOptions: { output: { codeSplitting: { groups: [{ name: 'index', tags: ['$initial'] }] } } },
    },
    // 30 s a test rather than vitest's 5: ./slots test runs these beside the chaos soak, and a test that
    // waits for nothing timed out there once when the VM stood still for seconds (its kernel logged a fork of
    // the virtual machine); each takes milliseconds, so only such a pause ever comes near the limit.
    test: { include: ['src/**/*.test.ts'], environment: 'node', testTimeout: 30_000 },
  };
});
