import { SMTPServer } from 'smtp-server'
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest'
import type { MailSettings } from '../../src/config.ts'
import { loadConfig } from '../../src/config.ts'
import { clientConfig } from '../../src/session/index.ts'
import { DEFAULT_SETTINGS } from '../../src/settings/index.ts'
import { redeemUserLink } from '../../src/users/index.ts'
import { Client, createTestApp, runJobs, setUp, type TestApp } from '../helpers/app.ts'
import { eventually } from '../helpers/wait.ts'

/**
 * Mail for real (spec 3 §7 "Users": links are returned only when mail is not configured; reference §1.3, §1.6): with a
 * mail server configured, invitations and password resets go through the worker's queue to a real SMTP server
 * (started here, in-process), the API answers carry no link, and a refusing server makes the job try again later
 * while the request that asked for the mail has long been answered.
 */
interface Received { to: string[]; raw: string }
const received: Received[] = []
/** How many coming deliveries the server refuses with a temporary error (451). */
let refuseNext = 0
let smtp: SMTPServer
let t: TestApp
let admin: Client
const BASE = 'https://sightline.example.com/data'

beforeAll(async () => {
  smtp = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = []
      stream.on('data', (c: Buffer) => chunks.push(c))
      stream.on('end', () => {
        if (refuseNext > 0) {
          refuseNext--
          return callback(Object.assign(new Error('Try again later'), { responseCode: 451 }))
        }
        received.push({ to: session.envelope.rcptTo.map((r) => r.address), raw: Buffer.concat(chunks).toString('utf8') })
        callback()
      })
    },
  })
  await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', resolve))
  const { port } = smtp.server.address() as { port: number }
  const mail: MailSettings = {
    server: '127.0.0.1', port, useTls: false, useSsl: false, username: undefined, password: undefined,
    defaultSender: 'Sightline <sightline@example.com>',
  }
  t = await createTestApp({ mail, baseUrl: BASE })
  admin = await setUp(t.app)
})
afterAll(async () => {
  await t?.close()
  await new Promise<void>((resolve) => smtp.close(() => resolve()))
})
beforeEach(() => {
  received.length = 0
  refuseNext = 0
})

/** The mail as a reader sees it: quoted-printable soft breaks and escapes undone. */
const decoded = (raw: string) => raw.replace(/=\r?\n/g, '').replace(/=([0-9A-F]{2})/g, (_, h: string) => String.fromCharCode(parseInt(h, 16)))
const linkIn = (raw: string, path: 'invite' | 'reset') =>
  decoded(raw).match(new RegExp(`${BASE.replace(/[./]/g, '\\$&')}/${path}/([A-Za-z0-9_-]+\\.[A-Za-z0-9_-]+)`))?.[1]
const mailJobs = () => t.db.sql<{ payload: Record<string, unknown>; attempts: number; max_attempts: number; last_error: string | null }[]>`
  select j.payload, j.attempts, j.max_attempts, j.last_error
  from graphile_worker._private_jobs j join graphile_worker._private_tasks k on k.id = j.task_id where k.identifier = 'send_mail'`

describe('with a mail server configured', () => {
  it('POST /api/users answers without the link and the invitation arrives through the queue with a working link', async () => {
    const res = await admin.post('/api/users', { name: 'Nia <New>', email: 'nia@example.com' })
    expect(res.status).toBe(200)
    const body = await res.json()
    expect(body.email).toBe('nia@example.com')
    expect(body).not.toHaveProperty('invite_link')
    expect(JSON.stringify(body)).not.toContain('/invite/')
    // the queued job holds the message itself and nothing of the SMTP settings
    const [job] = await mailJobs()
    expect(Object.keys(job.payload).sort()).toEqual(['html', 'subject', 'text', 'to'])
    expect(job.max_attempts).toBeGreaterThan(1)
    expect(received).toHaveLength(0)

    await runJobs(t)
    expect(received).toHaveLength(1)
    const [mail] = received
    expect(mail.to).toEqual(['nia@example.com'])
    expect(mail.raw).toMatch(/^Subject: Ada Admin invited you to join Sightline\r?$/m)
    expect(mail.raw).toMatch(/^From: Sightline <sightline@example\.com>\r?$/m)
    expect(mail.raw).toContain('text/plain')
    expect(mail.raw).toContain('text/html')
    // the name someone typed is text in the HTML part, never markup
    expect(decoded(mail.raw)).toContain('Nia &lt;New&gt;')
    const token = linkIn(mail.raw, 'invite')
    expect(token).toBeDefined()
    expect(await redeemUserLink(t.db.sql, t.deps, 'invite', token!)).toBe(body.id)
    // the sent mail's job ends (it is not left to be tried again); its completion is written as the run winds down
    await eventually(mailJobs, (jobs) => jobs.length === 0, 'the mail job ended')
  })

  it('POST /api/users/{id}/invite mails a new invitation and answers without it', async () => {
    const { id } = await (await admin.post('/api/users', { name: 'Ren Resend', email: 'ren@example.com' })).json()
    await runJobs(t)
    received.length = 0
    const res = await admin.post(`/api/users/${id}/invite`, {})
    expect(res.status).toBe(200)
    expect(await res.json()).toEqual({})
    await runJobs(t)
    expect(received.map((m) => m.to)).toEqual([['ren@example.com']])
    expect(await redeemUserLink(t.db.sql, t.deps, 'invite', linkIn(received[0].raw, 'invite')!)).toBe(id)
  })

  it('POST /api/users/{id}/reset_password mails a reset link and answers without it', async () => {
    const adminId = (await (await admin.get('/api/session')).json()).user.id
    const res = await admin.post(`/api/users/${adminId}/reset_password`, {})
    expect(res.status).toBe(200)
    expect(await res.json()).toEqual({})
    await runJobs(t)
    expect(received).toHaveLength(1)
    expect(received[0].to).toEqual(['ada@example.com'])
    expect(received[0].raw).toMatch(/^Subject: Reset your password\r?$/m)
    expect(await redeemUserLink(t.db.sql, t.deps, 'reset', linkIn(received[0].raw, 'reset')!)).toBe(adminId)
  })

  it('/forgot mails a reset link to a known address, and nothing to an unknown one, with the same page for both', async () => {
    const known = await new Client(t.app).request('POST', '/forgot', { form: { email: 'Ada@Example.com' } })
    const unknown = await new Client(t.app).request('POST', '/forgot', { form: { email: 'nobody@example.com' } })
    expect(known.status).toBe(200)
    expect(await known.text()).toBe(await unknown.text())
    await runJobs(t)
    expect(received.map((m) => m.to)).toEqual([['ada@example.com']])
    const adminId = (await (await admin.get('/api/session')).json()).user.id
    expect(await redeemUserLink(t.db.sql, t.deps, 'reset', linkIn(received[0].raw, 'reset')!)).toBe(adminId)
  })

  it('a refusing mail server fails the job, not the request, and the job is tried again until the mail goes out', async () => {
    refuseNext = 1
    const adminId = (await (await admin.get('/api/session')).json()).user.id
    const res = await admin.post(`/api/users/${adminId}/reset_password`, {})
    expect(res.status).toBe(200)
    const [{ payload }] = await mailJobs()
    const token = linkIn(String(payload.text), 'reset')!
    const logged: string[] = []
    vi.spyOn(process.stderr, 'write').mockImplementation((chunk) => (logged.push(String(chunk)), true))
    await runJobs(t)
    // the failure is logged (perhaps just after the run ends), without the link the job carries
    await eventually(async () => logged.join(''), (text) => text.includes('Failed task'), 'the logged failure')
    vi.restoreAllMocks()
    expect(logged.join('')).not.toContain(token)
    expect(received).toHaveLength(0)
    const [failed] = await mailJobs()
    expect(failed.attempts).toBe(1)
    expect(failed.last_error).toContain('451')
    expect(failed.max_attempts).toBeGreaterThan(failed.attempts)
    // graphile-worker waits before the next attempt; bring it forward instead of waiting
    await t.db.sql`update graphile_worker._private_jobs set run_at = now() where task_id =
      (select id from graphile_worker._private_tasks where identifier = 'send_mail')`
    await runJobs(t)
    expect(received).toHaveLength(1)
    expect(linkIn(received[0].raw, 'reset')).toBeDefined()
    await eventually(mailJobs, (jobs) => jobs.length === 0, 'the mail job ended')
  })
})

describe('mail settings', () => {
  it('count as configured only with both a server and a sender, and the client hears whether they are', () => {
    expect(loadConfig({ SIGHTLINE_MAIL_SERVER: 'smtp.example.com' }).mail).toBeUndefined()
    expect(loadConfig({ SIGHTLINE_MAIL_DEFAULT_SENDER: 'a@example.com' }).mail).toBeUndefined()
    const config = loadConfig({ SIGHTLINE_MAIL_SERVER: 'smtp.example.com', SIGHTLINE_MAIL_DEFAULT_SENDER: 'a@example.com' })
    expect(config.mail).toMatchObject({ server: 'smtp.example.com', port: 587, useTls: false, useSsl: false })
    expect(loadConfig({ SIGHTLINE_MAIL_SERVER: 's', SIGHTLINE_MAIL_DEFAULT_SENDER: 'a', SIGHTLINE_MAIL_USE_SSL: 'true' }).mail?.port).toBe(465)
    expect(() => loadConfig({ SIGHTLINE_MAIL_PORT: 'x' })).toThrow(/SIGHTLINE_MAIL_PORT/)
    expect(clientConfig(config, DEFAULT_SETTINGS).mailSettingsMissing).toBe(false)
    expect(clientConfig(loadConfig({}), DEFAULT_SETTINGS).mailSettingsMissing).toBe(true)
  })
})
