import { defineConfig } from 'vitest/config'

export default defineConfig({
  test: {
    include: ['src/**/*.test.{ts,tsx}', 'test/**/*.test.{ts,tsx}', 'worker/**/*.test.ts'],
    globalSetup: ['test/helpers/global-setup.ts'],
    setupFiles: ['test/helpers/console-guard.ts'],
    // bounds, not expectations: generous, so a busy machine makes tests slower, never red (speed is measured in bench/)
    testTimeout: 60_000,
    hookTimeout: 120_000,
    expect: { poll: { timeout: 20_000 } },
    // each test file gets its own database, so files run in parallel safely
    fileParallelism: true,
  },
})
