import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { CliIo } from '../../scripts/cli/io.ts'
import { main } from '../../scripts/sightline.ts'
import { addUser } from '../helpers/app.ts'
import { contentFixture, WEBHOOK_SECRET, wipe, type ContentFixture } from './git-files-fixture.ts'

/**
 * `npx sightline export <dir>` and `npx sightline import <dir>` as thin clients of the API: a folder per kind, files
 * named by key, removed when their object is gone, and an import of the folder that says what it changed.
 */
let f: ContentFixture
let adminKey: string
let dir: string

function io(): CliIo & { stdout: string; stderr: string } {
  const o = {
    stdout: '', stderr: '', env: { SIGHTLINE_API_KEY: adminKey }, tty: false,
    out: (s: string) => void (o.stdout += s),
    err: (s: string) => void (o.stderr += s),
    fetch: ((url: string, init?: RequestInit) => f.t.app.request(url, init)) as typeof fetch,
    pause: async () => {},
  }
  return o
}
const read = (name: string) => fs.readFileSync(path.join(dir, name), 'utf8')
const listing = () => ['queries', 'dashboards', 'alerts', 'destinations', 'snippets', 'groups'].flatMap((k) => fs.readdirSync(path.join(dir, k)).map((n) => `${k}/${n}`)).sort()

beforeAll(async () => {
  f = await contentFixture()
  adminKey = (await addUser(f.t, { name: 'Cli Admin', email: 'cli@example.com', password: 'cli-password', admin: true })).apiKey
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sightline-export-'))
})
afterAll(async () => {
  fs.rmSync(dir, { recursive: true, force: true })
  await f.t.close()
})

describe('npx sightline export and import <dir>', () => {
  it('exports a folder per kind, one file per object, without secrets', async () => {
    const out = io()
    expect(await main(['export', dir, '--to', 'http://localhost'], out)).toBe(0)
    expect(out.stderr).toBe('')
    expect(out.stdout).toContain(`10 files in ${dir}: 10 written, 0 removed.`)
    expect(listing()).toContain('queries/revenue-by-month.sql')
    expect(read('dashboards/ops-board.yaml')).toMatch(/^name: Ops board\nslug: ops-board\n/)
    expect(listing().map(read).join('')).not.toContain(WEBHOOK_SECRET)
  })

  it('imports the folder after a wipe and exports the same bytes again, removing files of objects gone', async () => {
    const before = Object.fromEntries(listing().map((n) => [n, read(n)]))
    await wipe(f.t)
    const run = io()
    expect(await main(['import', dir, '--to', 'http://localhost'], run)).toBe(0)
    expect(run.stdout).toMatch(/\nqueries\s+3\s+0\s+0\s+0\n/)
    expect(run.stdout).toContain('Applied.')
    const same = io()
    expect(await main(['import', dir, '--to', 'http://localhost'], same)).toBe(0)
    expect(same.stdout).toMatch(/\nqueries\s+0\s+0\s+3\s+0\n/)
    expect(same.stdout).toContain('Nothing changed; nothing was written.')
    fs.writeFileSync(path.join(dir, 'snippets', 'stale.yaml'), 'trigger: stale\nsnippet: x\n')
    const again = io()
    expect(await main(['export', dir, '--to', 'http://localhost'], again)).toBe(0)
    expect(again.stdout).toContain('0 written, 1 removed.')
    expect(Object.fromEntries(listing().map((n) => [n, read(n)]))).toEqual(before)
  })

  it('previews with --dry-run, prunes with --prune, and names a bad file with its line (exit code 1)', async () => {
    fs.rmSync(path.join(dir, 'alerts', 'revenue-drop.yaml'))
    const dry = io()
    expect(await main(['import', dir, '--prune', '--dry-run', '--to', 'http://localhost'], dry)).toBe(0)
    expect(dry.stdout).toMatch(/\nalerts\s+0\s+0\s+0\s+1\n/)
    expect(dry.stdout).toContain('Dry run: nothing was written.')
    expect((await f.t.db.sql`select count(*)::int as n from alerts`)[0].n).toBe(1)
    fs.writeFileSync(path.join(dir, 'dashboards', 'broken.yaml'), 'name: Broken\nwidgets:\n  - query: [x\n')
    const bad = io()
    expect(await main(['import', dir, '--prune', '--to', 'http://localhost'], bad)).toBe(1)
    expect(bad.stdout).toMatch(/Not applied:\n\s+dashboards\/broken\.yaml:\d+: malformed YAML/)
    expect((await f.t.db.sql`select count(*)::int as n from alerts`)[0].n).toBe(0)
  })

  it('says why when Sightline refuses or the folder is missing', async () => {
    const member = (await addUser(f.t, { name: 'Mo', email: 'mo@example.com', password: 'mo-password' })).apiKey
    const refused = io()
    expect(await main(['export', dir, '--to', 'http://localhost', '--to-key', member], refused)).toBe(1)
    expect(refused.stderr).toContain('Sightline refused the export (403)')
    const missing = io()
    expect(await main(['import', path.join(dir, 'nope'), '--to', 'http://localhost'], missing)).toBe(2)
    expect(missing.stderr).toContain('is not a folder')
    const noDir = io()
    expect(await main(['export'], noDir)).toBe(2)
    expect(noDir.stderr).toContain('Name the folder.')
  })
})
