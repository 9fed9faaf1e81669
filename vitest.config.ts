import os from 'node:os'
import { configDefaults, defineConfig } from 'vitest/config'
import LayerSequencer from './test/helpers/sequencer.ts'

/**
 * Test files that start processes of their own (Sightline's web and worker, an old Node, Deno, PostgreSQL 15,
 * ClickHouse, a runner's orphan): they mostly wait on those processes, and each start costs a burst of CPU.
 */
const PROCESS = ['test/faults/**/*.test.ts', 'test/runtime/**/*.test.ts', 'test/runners/clickhouse.test.ts', 'test/runners/orphans.test.ts']

/**
 * Browser files at once: one per core. One file keeps about 1.3 of two cores busy (Chromium, its driver and the
 * server: 28 % idle with one file alone); two at once on two cores took the layer from 12.2 to 10.0 min on one
 * machine and to 5.6 min on another, three at once were slower. Tests that measure or drag a dashboard's widgets wait
 * for the grid's slide first (`animationsDone`): under two files' load, a box read mid-slide failed them.
 */
const BROWSER_FILES_AT_ONCE = os.availableParallelism()

/*
 * Five layers, run as Vitest projects. Vitest runs projects of one `groupOrder` together, sharing one worker count,
 * and the groups one after another. Most tests wait on I/O (the database, a worker, a child process, a browser
 * painting), so on two cores more workers than cores keep the CPU busy. The first group holds the unit, api, pages
 * and process layers on four workers, the process files first (see the sequencer): they mostly wait on heartbeats and
 * child processes while the in-process files use the CPU. The pages layer reads server-drawn HTML over HTTP, without
 * Chromium. The browser layer follows on its own, one file per core (above) on one Chromium started for the
 * layer, each file handing its browser contexts from test to test (test/browser/page-pool.ts): beside the other
 * layers, tests that count a page's own time (toasts, clocks) were seen failing.
 * `npm run test:quick` runs unit, api and pages alone.
 */
export default defineConfig({
  test: {
    globalSetup: ['test/helpers/global-setup.ts'],
    setupFiles: ['test/helpers/console-guard.ts', 'test/helpers/password-cost.ts'],
    // bounds, not expectations: generous, so a busy machine makes tests slower, never red (speed is measured in bench/)
    testTimeout: 60_000,
    hookTimeout: 120_000,
    expect: { poll: { timeout: 20_000 } },
    // each test file gets its own database, so files run in parallel safely
    fileParallelism: true,
    // Files of one worker share its loaded modules instead of importing the app again each (seconds of CPU per file):
    // what a module keeps is either per database (caches keyed by it, the tests' databases being apart) or put back
    // by the test that changed it.
    isolate: false,
    sequence: { sequencer: LayerSequencer },
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          include: ['src/**/*.test.{ts,tsx}', 'worker/**/*.test.ts', 'test/unit/**/*.test.{ts,tsx}', 'test/visualizations/**/*.test.{ts,tsx}'],
          maxWorkers: 4,
          sequence: { groupOrder: 0 },
        },
      },
      {
        extends: true,
        test: {
          name: 'api',
          include: ['test/api/**/*.test.{ts,tsx}', 'test/security/**/*.test.{ts,tsx}', 'test/runners/**/*.test.ts'],
          exclude: [...configDefaults.exclude, ...PROCESS],
          maxWorkers: 4,
          sequence: { groupOrder: 0 },
        },
      },
      {
        extends: true,
        test: {
          name: 'pages',
          include: ['test/pages/**/*.test.ts'],
          maxWorkers: 4,
          sequence: { groupOrder: 0 },
        },
      },
      {
        extends: true,
        test: {
          name: 'browser',
          include: ['test/browser/**/*.test.{ts,tsx}'],
          // one Chromium for the layer, each file connecting to it (test/helpers/chromium.ts)
          globalSetup: ['test/helpers/browser-setup.ts'],
          maxWorkers: BROWSER_FILES_AT_ONCE,
          sequence: { groupOrder: 1 },
        },
      },
      {
        extends: true,
        test: {
          name: 'process',
          include: PROCESS,
          maxWorkers: 4,
          sequence: { groupOrder: 0 },
        },
      },
    ],
  },
})
