import react from '@vitejs/plugin-react';
import { defineConfig } from 'vitest/config';

// Relative asset paths: the same dist/ works at the API's root and from any CDN folder.
export default defineConfig({
  base: './',
  plugins: [react()],
  build: { outDir: 'dist', emptyOutDir: true },
  test: { include: ['src/**/*.test.ts'], environment: 'node' },
});
