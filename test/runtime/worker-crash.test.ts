import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { Client, createTestApp, pgOptionsFor, setUp, type TestApp } from '../helpers/app.ts'
import { holdLock } from '../helpers/held-lock.ts'
import { spawnSightline, stopProcess, waitForOutput } from '../helpers/process.ts'
import { eventually } from '../helpers/wait.ts'

const DEAD_AFTER = '3'

describe('a worker killed in the middle of a query', () => {
  let t: TestApp
  let admin: Client
  let dsId: number
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'sightline-crash-'))
  beforeAll(async () => {
    t = await createTestApp()
    admin = await setUp(t.app)
    dsId = (await (await admin.post('/api/data_sources', { name: 'Warehouse', type: 'pg', options: pgOptionsFor(t) })).json()).id
  })
  afterAll(async () => {
    await t.close()
    fs.rmSync(dataDir, { recursive: true, force: true })
  })

  const worker = () => spawnSightline({
    DATABASE_URL: t.db.url, SIGHTLINE_DATA_DIR: dataDir, SIGHTLINE_PROCESS: 'worker', SIGHTLINE_WORKER_DEAD_AFTER_SECONDS: DEAD_AFTER,
    SIGHTLINE_SECRET_KEY: t.deps.secretKey, // the data source's password was sealed with the test app's key
  })
  const status = async (id: string) => (await (await admin.get(`/api/jobs/${id}`)).json()).job

  it('is noticed by the next worker, which runs the query again instead of leaving it stuck in processing', async () => {
    const first = await worker()
    await waitForOutput(first, 'worker started', 60_000)
    // the query waits for a lock the test holds, so the worker is surely in the middle of it when killed
    const lock = await holdLock(t.db.sql)
    const { job } = await (await admin.post('/api/query_results', { data_source_id: dsId, query: lock.query('1 as survived'), max_age: 0 })).json()
    try {
      await eventually(() => status(job.id), (now) => now.status === 2, 'the query running on the first worker')
      first.child.kill('SIGKILL')
      await first.exited
    } finally {
      await lock.release()
    }

    const second = await worker()
    try {
      // the second worker counts the first as dead after DEAD_AFTER seconds, then runs the query again
      const now = await eventually(() => status(job.id), (now) => now.status >= 3, 'the job ended by the second worker', 60_000)
      expect(now).toMatchObject({ status: 3, error: '' })
      const [row] = await t.db.sql`select attempts from executions where id = ${job.id}`
      expect(row.attempts).toBe(2)
      expect(second.output()).toContain('recovered the work of stopped workers')
    } finally {
      expect(await stopProcess(second)).toBe(0)
    }
  }, 180_000)
})
