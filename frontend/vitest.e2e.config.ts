import { defineConfig } from 'vitest/config';

// Browser tests against the real API: one file at a time, generous but bounded timeouts.
export default defineConfig({
  test: {
    include: ['e2e/**/*.e2e.ts'],
    globalSetup: ['e2e/globalSetup.ts'],
    fileParallelism: false,
    testTimeout: 90_000,
    hookTimeout: 180_000,
  },
});
