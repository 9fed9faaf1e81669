import { defineConfig } from 'vitest/config'

export default defineConfig({
  test: {
    include: ['src/**/*.test.{ts,tsx}', 'test/**/*.test.{ts,tsx}', 'worker/**/*.test.ts'],
    globalSetup: ['test/helpers/global-setup.ts'],
    setupFiles: ['test/helpers/console-guard.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // each test file gets its own database, so files run in parallel safely
    fileParallelism: true,
  },
})
