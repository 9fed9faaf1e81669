import { setupServer } from 'msw/node'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { main } from '../../scripts/sightline.ts'
import type { CliIo } from '../../scripts/cli/io.ts'
import { fakeOrigin } from '../fixtures/redash/handlers.ts'
import { ADMIN_KEY, buildInstance } from '../fixtures/redash/instance.ts'
import { addUser, createTestApp, runJobs, setUp, type TestApp } from '../helpers/app.ts'

/**
 * `npx sightline import` as a thin client of the import API: it starts the run, draws progress while polling it, and
 * ends with the summary table. Its waits between polls run the queued jobs, so the test never waits on a clock.
 */
const ORIGIN = 'http://redash-cli.test'
const origin = fakeOrigin(ORIGIN, buildInstance('10.1.0'), { maxPageSize: 3 })
const server = setupServer(...origin.handlers)
let t: TestApp
let adminKey: string
let memberKey: string

function io(env: Record<string, string> = {}): CliIo & { stdout: string; stderr: string } {
  const o = {
    stdout: '', stderr: '', env, tty: false,
    out: (s: string) => void (o.stdout += s),
    err: (s: string) => void (o.stderr += s),
    fetch: ((url: string, init?: RequestInit) => t.app.request(url, init)) as typeof fetch,
    pause: () => runJobs(t),
  }
  return o
}

beforeAll(async () => {
  server.listen({ onUnhandledFrame: 'bypass' })
  t = await createTestApp()
  await setUp(t.app)
  adminKey = (await addUser(t, { name: 'Cli Admin', email: 'cli@example.com', password: 'cli-password', admin: true })).apiKey
  memberKey = (await addUser(t, { name: 'Mo Member', email: 'mo@example.com', password: 'mo-password' })).apiKey
})
afterAll(async () => {
  server.close()
  await t.close()
})

describe('npx sightline import', () => {
  it('imports, draws progress per kind, and ends with the summary table', async () => {
    const out = io({ SIGHTLINE_API_KEY: adminKey })
    const code = await main(['import', '--from', ORIGIN, '--key', ADMIN_KEY, '--to', 'http://localhost'], out)
    expect(out.stderr).toBe('')
    expect(code).toBe(0)
    expect(out.stdout).toMatch(/queries\s+\[#+\]\s+7 \/ 7/)
    expect(out.stdout).toMatch(/kind\s+brought\s+updated\s+skipped\s+to fill in/)
    expect(out.stdout).toMatch(/\nqueries\s+7\s+0\s+0\s+0\n/)
    expect(out.stdout).toMatch(/To fill in by hand:\n(.*\n)*\s+data_sources: Warehouse: password/)
    expect(out.stdout).toMatch(/Skipped:\n(.*\n)*\s+widgets \d+ Dashboard 1: the old instance hid/)
    expect(out.stdout).not.toContain(ADMIN_KEY)
    expect(origin.writes).toEqual([])
  })

  it('a second run reports updates, a dry run says nothing was written', async () => {
    const again = io()
    expect(await main(['import', '--from', ORIGIN, '--key', ADMIN_KEY, '--to', 'http://localhost', '--to-key', adminKey, '--dry-run'], again)).toBe(0)
    expect(again.stdout).toMatch(/\nqueries\s+0\s+7\s+0\s+0\n/)
    expect(again.stdout).toContain('Dry run: nothing was written.')
  })

  it('says why when Sightline refuses, when the old instance fails, and when options are wrong', async () => {
    const member = io()
    expect(await main(['import', '--from', ORIGIN, '--key', ADMIN_KEY, '--to', 'http://localhost', '--to-key', memberKey], member)).toBe(1)
    expect(member.stderr).toContain('Sightline refused the import (403)')
    const wrongKey = io()
    expect(await main(['import', '--from', ORIGIN, '--key', 'nope', '--to', 'http://localhost', '--to-key', adminKey], wrongKey)).toBe(1)
    expect(wrongKey.stderr).toMatch(/The import failed: .*refused the key/)
    const missing = io()
    expect(await main(['import', '--from', ORIGIN], missing)).toBe(2)
    expect(missing.stderr).toContain('Missing --key, --to-key (or SIGHTLINE_API_KEY)')
    const unknown = io()
    expect(await main(['import', '--form', ORIGIN], unknown)).toBe(2)
    expect(unknown.stderr).toContain('Unknown option: --form')
    expect(await main(['nonsense'], io())).toBe(2)
  })
})
