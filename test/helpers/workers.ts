import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import type { TestApp } from './app.ts'
import { spawnSightline, stopProcess, waitForOutput, type SightlineProcess } from './process.ts'

/**
 * Worker processes on a test app's database, for the fault tests: started as `SIGHTLINE_PROCESS=worker` with the
 * app's secret key (the data sources' passwords were sealed with it) and a short dead-worker bound, killed with SIGKILL
 * as a crash would. `close` stops those still running and removes their data directory.
 */
export function workerProcesses(t: TestApp, deadAfterSeconds: number, env: Record<string, string> = {}) {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'sightline-faults-'))
  const started: SightlineProcess[] = []
  return {
    /** A new worker, once it says it has started. */
    async start(): Promise<SightlineProcess> {
      const w = await spawnSightline({
        DATABASE_URL: t.db.url, SIGHTLINE_DATA_DIR: dataDir, SIGHTLINE_PROCESS: 'worker',
        SIGHTLINE_WORKER_DEAD_AFTER_SECONDS: String(deadAfterSeconds), SIGHTLINE_SECRET_KEY: t.deps.secretKey, ...env,
      })
      started.push(w)
      await waitForOutput(w, 'worker started', 60_000)
      return w
    },
    /** SIGKILL: the worker gets no chance to clean up. */
    async kill(w: SightlineProcess) {
      w.child.kill('SIGKILL')
      await w.exited
    },
    /** SIGTERM every worker still running, and wait for them to end. */
    async stopAll(timeoutMs?: number) {
      await Promise.all(started.map((w) => stopProcess(w, timeoutMs)))
    },
    async close() {
      await this.stopAll(5_000)
      fs.rmSync(dataDir, { recursive: true, force: true })
    },
  }
}
