import { execFile } from 'node:child_process'
import path from 'node:path'
import { promisify } from 'node:util'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { addUser, Client, createTestApp, setUp, type TestApp } from '../helpers/app.ts'

// The break-glass sign-in: `sightline sign-in-link <email>` on the server prints a one-time link (15 minutes, in the
// audit log) that signs the user in whatever login methods are on.

const run = promisify(execFile)
const CLI = path.resolve(import.meta.dirname, '../../scripts/sightline.mjs')
let t: TestApp

beforeAll(async () => {
  t = await createTestApp()
  await setUp(t.app)
  await addUser(t, { name: 'Gone Person', email: 'gone@example.com', password: 'gone-password', disabled: true })
}, 60_000)
afterAll(async () => {
  await t?.close()
})

const sightline = (...args: string[]) => run(process.execPath, [CLI, ...args], {
  env: { ...process.env, DATABASE_URL: t.db.url, SIGHTLINE_SECRET_KEY: t.deps.secretKey, NODE_ENV: 'production' },
})

describe('sightline sign-in-link', () => {
  it('prints a link that signs the user in once, recorded in the audit log', async () => {
    const { stdout } = await sightline('sign-in-link', 'ADA@example.com')
    const url = new URL(stdout.trim())
    expect(url.origin).toBe('http://localhost')
    expect(url.pathname).toMatch(/^\/sign-in-link\/[\w.-]+$/)
    const [token] = await t.db.sql`select extract(epoch from expires_at - created_at)::int as seconds from user_tokens where purpose = 'sign_in'`
    expect(token.seconds).toBe(15 * 60)
    const [issued] = await t.db.sql`select object_id, additional_properties as p from events where action = 'issue_sign_in_link'`
    expect(issued.p.method).toBe('command_line')

    const client = new Client(t.app)
    const page = await client.get(url.pathname)
    expect(page.status).toBe(200)
    expect(await page.text()).toContain('Ada Admin')
    const res = await client.request('POST', url.pathname)
    expect(res.status).toBe(302)
    expect((await (await client.get('/api/session')).json()).user.email).toBe('ada@example.com')
    const [login] = await t.db.sql`select additional_properties as p from events where action = 'login' order by id desc limit 1`
    expect(login.p.method).toBe('sign_in_link')

    const again = await new Client(t.app).request('POST', url.pathname)
    expect(again.status).toBe(400)
    expect(await again.text()).toContain('already used')
  }, 60_000)

  it('refuses an unknown or disabled user, and a forged link', async () => {
    await expect(sightline('sign-in-link', 'nobody@example.com')).rejects.toMatchObject({ stderr: expect.stringContaining('There is no user') })
    await expect(sightline('sign-in-link', 'gone@example.com')).rejects.toMatchObject({ stderr: expect.stringContaining('disabled') })
    expect((await new Client(t.app).request('POST', '/sign-in-link/forged.token')).status).toBe(400)
  }, 60_000)
})
