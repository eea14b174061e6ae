import { defineConfig } from 'vitest/config';

// The single executables' tests (test/exe/, `npm run test:exe`): they need dist/exe, which
// `npm run build:exe` makes, so CI runs them once, on Node 26, and `npm test` leaves them out.
export default defineConfig({
  test: {
    include: ['test/exe/**/*.test.ts'],
    testTimeout: 60_000,
    // A Wine prefix takes about 20 s to make on the first run.
    hookTimeout: 180_000,
    maxWorkers: 1,
  },
});
