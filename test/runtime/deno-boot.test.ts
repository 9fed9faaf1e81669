import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { freshDatabase, type TestDatabase } from '../helpers/db.ts'
import { spawnSightline, stopProcess, waitForPing } from '../helpers/process.ts'

let db: TestDatabase
beforeAll(async () => {
  db = await freshDatabase()
})
afterAll(() => db.drop())

it('the same app boots under Deno, answers /ping and renders pages, then stops cleanly', async () => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'sightline-deno-'))
  const p = await spawnSightline({ DATABASE_URL: db.url, SIGHTLINE_PROCESS: 'web', SIGHTLINE_DATA_DIR: dataDir }, 'deno')
  try {
    await waitForPing(p, 60_000)
    expect(await (await fetch(`http://127.0.0.1:${p.port}/ping`)).text()).toBe('PONG.')
    const setup = await fetch(`http://127.0.0.1:${p.port}/setup`)
    expect(setup.status).toBe(200)
    expect(await setup.text()).toContain('Organization Name')
  } finally {
    const code = await stopProcess(p)
    fs.rmSync(dataDir, { recursive: true, force: true })
    // what Deno and the app said last, should it not stop cleanly (it exited 143, killed by the signal, once in a full run)
    expect(code, p.output().split('\n').slice(-40).join('\n')).toBe(0)
  }
}, 90_000)
