import { configDefaults, defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // The single executables' tests run once, by vitest.exe.config.ts (npm run test:exe).
    exclude: [...configDefaults.exclude, 'test/exe/**'],
    testTimeout: 20_000,
    hookTimeout: 20_000,
    // e2e tests spawn the built binary; two cores, so keep the pool small.
    maxWorkers: 2,
  },
});
