import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { alive, readMigrations } from '../../src/db/index.ts'
import { freshDatabase, type TestDatabase } from '../helpers/db.ts'
import { spawnSightline, stopProcess, waitForOutput, waitForPing } from '../helpers/process.ts'

describe('several processes on one database', () => {
  let db: TestDatabase
  beforeAll(async () => {
    db = await freshDatabase()
    // start from an empty database, so the four processes race to apply the migrations
    await db.sql.unsafe('drop schema public cascade; create schema public')
  })
  afterAll(() => db.drop())

  it('two web and two worker processes started at once all come up, migrate once, and stop on SIGTERM', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'sightline-procs-'))
    const env = { DATABASE_URL: db.url, SIGHTLINE_DATA_DIR: dataDir }
    const procs = await Promise.all([
      spawnSightline({ ...env, SIGHTLINE_PROCESS: 'web' }),
      spawnSightline({ ...env, SIGHTLINE_PROCESS: 'web' }),
      spawnSightline({ ...env, SIGHTLINE_PROCESS: 'worker' }),
      spawnSightline({ ...env, SIGHTLINE_PROCESS: 'worker' }),
    ])
    try {
      await Promise.all([waitForPing(procs[0], 60_000), waitForPing(procs[1], 60_000)])
      await Promise.all([waitForOutput(procs[2], 'worker started', 60_000), waitForOutput(procs[3], 'worker started', 60_000)])
      const migrations = await db.sql`select version from schema_migrations order by version`
      expect(migrations.map((m) => m.version)).toEqual(readMigrations().map((m) => m.version))
      expect(procs.map((p) => p.output()).join('').match(/migrations applied/g)).toHaveLength(1)
    } finally {
      const codes = await Promise.all(procs.map((p) => stopProcess(p)))
      fs.rmSync(dataDir, { recursive: true, force: true })
      expect(codes).toEqual([0, 0, 0, 0])
    }
  }, 120_000)
})

describe('the embedded database', () => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'sightline-embedded-'))
  fs.chmodSync(dataDir, 0o755)
  const env = { SIGHTLINE_DATA_DIR: dataDir, DATABASE_URL: '' }
  const postmasterPid = () => Number(fs.readFileSync(path.join(dataDir, 'pg', 'postmaster.pid'), 'utf8').split('\n')[0])
  afterAll(() => fs.rmSync(dataDir, { recursive: true, force: true }))

  it('is created on first start, and a killed run leaves nothing that blocks the next start', async () => {
    const first = await spawnSightline(env)
    await waitForPing(first, 60_000)
    expect(first.output()).toContain('initialising embedded PostgreSQL')
    const pid = postmasterPid()
    first.child.kill('SIGKILL')
    await first.exited
    expect(alive(pid)).toBe(true) // the server outlives a killed parent

    const second = await spawnSightline(env)
    await waitForPing(second, 60_000)
    expect(second.output()).not.toContain('initialising')
    expect(second.output()).toContain('joining running embedded PostgreSQL')
    expect(await stopProcess(second)).toBe(0)
    expect(alive(pid)).toBe(false) // the last process out stops the server
  }, 120_000)

  it('a later start reuses the data dir and its data without initialising again, past a stale lock', async () => {
    // a process killed while starting leaves its lock file behind; its pid is gone
    fs.writeFileSync(path.join(dataDir, 'pg.lock'), '999999')
    const third = await spawnSightline(env)
    await waitForPing(third, 60_000)
    expect(third.output()).not.toContain('initialising')
    const setup = await fetch(`http://127.0.0.1:${third.port}/setup`, { redirect: 'manual' })
    expect(setup.status).toBe(200) // no organization yet: data survives, nothing was set up
    expect(await stopProcess(third)).toBe(0)
    expect(fs.existsSync(path.join(dataDir, 'pg', 'postmaster.pid'))).toBe(false)
  }, 120_000)
})
