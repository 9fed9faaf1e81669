import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { addUser, Client, createTestApp, runJobs, setUp, signInAs, type TestApp } from '../helpers/app.ts'
import { startSmtp, type ArrivedMail } from '../helpers/smtp.ts'

/**
 * Email verification (spec 1 §1 home page notice, reference §1.3, §1.6): with a mail server configured, Resend email
 * mails a single-use link through the worker's queue to a real SMTP server (started here, in-process); opening the
 * link verifies the address on a page without script; a used, tampered or expired link gets a 400 page. A changed
 * address is unverified until its own link is opened.
 */
const BASE = 'https://sightline.example.com/data'
const NOTICE = 'We have sent an email with a confirmation link to your email address.'
const SENT = 'Please check your email inbox in order to verify your email address.'
const INVALID = 'Your verification link is invalid, has expired or was already used. Please ask for a new one.'

let smtp: Awaited<ReturnType<typeof startSmtp>>
let t: TestApp
let bo: { id: number; client: Client }

const pathIn = (mail: ArrivedMail) => {
  const link = mail.text.match(/https:\/\/sightline\.example\.com\/data\/verify\/[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+/)?.[0]
  expect(link, 'the link in the plain text part').toBeDefined()
  expect(mail.html).toContain(`href="${link}"`)
  return new URL(link!).pathname.replace(/^\/data/, '')
}
const verified = async (id: number) => (await t.db.sql<{ v: boolean }[]>`select is_email_verified as v from users where id = ${id}`)[0].v

async function unverify(id: number) {
  await t.db.sql`update users set is_email_verified = false where id = ${id}`
  await t.db.sql`delete from user_tokens where user_id = ${id}`
  await t.deps.bus.invalidate('user', id)
}

beforeAll(async () => {
  smtp = await startSmtp()
  t = await createTestApp({ mail: smtp.mail, baseUrl: BASE })
  await setUp(t.app)
  const { id } = await addUser(t, { name: 'Bo <Builder>', email: 'bo@example.com', password: 'bo-password' })
  bo = { id, client: (await signInAs(t.app, 'bo@example.com', 'bo-password')).client }
})
afterAll(async () => {
  await t?.close()
  await smtp?.close()
})
beforeEach(() => {
  smtp.received.length = 0
})

describe('with a mail server configured', () => {
  it('the home page offers Resend email; it mails a link that verifies the address on a page without script', async () => {
    await unverify(bo.id)
    const home = await (await bo.client.get('/')).text()
    expect(home).toContain(NOTICE)
    expect(home).toMatch(/<form[^>]*action="\/verification_email\/"[^>]*>\s*<button type="submit"[^>]*>Resend email</)

    // the home page's plain form gets a page; the spec's client (JSON) gets the message
    const page = await bo.client.request('POST', '/verification_email/', { form: {} })
    expect(page.status).toBe(200)
    expect(await page.text()).toContain(SENT)
    const json = await bo.client.request('POST', '/verification_email/', { headers: { accept: 'application/json' } })
    expect(json.status).toBe(200)
    expect(await json.json()).toEqual({ message: SENT })

    await runJobs(t)
    // the second request came within a minute of the first: one mail, not two
    expect(smtp.received).toHaveLength(1)
    const [mail] = smtp.received
    expect(mail.to).toEqual(['bo@example.com'])
    expect(mail.subject).toBe('Bo <Builder>, please verify your email address')
    expect(mail.from).toBe('Sightline <sightline@example.com>')
    expect(mail.html).toContain('Hi Bo &lt;Builder&gt;,')
    const path = pathIn(mail)

    const opened = await new Client(t.app).get(path)
    expect(opened.status).toBe(200)
    const html = await opened.text()
    expect(html).toContain('Your email address bo@example.com is verified.')
    expect(html).not.toMatch(/<script/i)
    expect(opened.headers.get('cache-control')).toBe('no-store')
    expect(await verified(bo.id)).toBe(true)
    expect(await (await bo.client.get('/')).text()).not.toContain(NOTICE)
    expect((await (await bo.client.get('/api/session')).json()).messages).not.toContain('email-not-verified')

    // used once: refused, and the address stays verified
    const again = await new Client(t.app).get(path)
    expect(again.status).toBe(400)
    expect(await again.text()).toContain(INVALID)
  })

  it('refuses a tampered, an expired and a made-up link with a 400 page', async () => {
    await unverify(bo.id)
    expect((await bo.client.post('/verification_email/')).status).toBe(200)
    await runJobs(t)
    const path = pathIn(smtp.received[0])
    const tampered = path.slice(0, -1) + (path.endsWith('A') ? 'B' : 'A')
    for (const bad of [tampered, '/verify/nonsense', '/verify/a.b.c', `/verify/${'x'.repeat(300)}`]) {
      const res = await new Client(t.app).get(bad)
      expect(res.status, bad).toBe(400)
      expect(await res.text()).toContain(INVALID)
    }
    await t.db.sql`update user_tokens set expires_at = now() - interval '1 second' where user_id = ${bo.id} and purpose = 'verify'`
    expect((await new Client(t.app).get(path)).status).toBe(400)
    expect(await verified(bo.id)).toBe(false)
  })

  it('sends nothing to an address that is already verified, and answers the same', async () => {
    await t.db.sql`update users set is_email_verified = true where id = ${bo.id}`
    await t.deps.bus.invalidate('user', bo.id)
    const res = await bo.client.request('POST', '/verification_email/', { headers: { accept: 'application/json' } })
    expect(await res.json()).toEqual({ message: SENT })
    await runJobs(t)
    expect(smtp.received).toHaveLength(0)
  })

  it('a changed address is unverified, and a link mailed to it verifies it; links sent to the old address stop working', async () => {
    await unverify(bo.id)
    await bo.client.post('/verification_email/')
    await runJobs(t)
    const oldPath = pathIn(smtp.received[0])
    smtp.received.length = 0
    await t.db.sql`update users set is_email_verified = true where id = ${bo.id}`

    const res = await bo.client.post(`/api/users/${bo.id}`, { email: 'Bo.New@example.com' })
    expect(res.status).toBe(200)
    expect((await res.json()).is_email_verified).toBe(false)
    expect(await (await bo.client.get('/')).text()).toContain(NOTICE)
    await runJobs(t)
    expect(smtp.received.map((m) => m.to)).toEqual([['bo.new@example.com']])
    expect((await new Client(t.app).get(oldPath)).status).toBe(400)
    expect((await new Client(t.app).get(pathIn(smtp.received[0]))).status).toBe(200)
    expect(await verified(bo.id)).toBe(true)
  })

  it('a disabled user\'s link verifies nothing', async () => {
    await unverify(bo.id)
    await bo.client.post('/verification_email/')
    await runJobs(t)
    const path = pathIn(smtp.received[0])
    await t.db.sql`update users set disabled_at = now() where id = ${bo.id}`
    try {
      expect((await new Client(t.app).get(path)).status).toBe(400)
      expect(await verified(bo.id)).toBe(false)
    } finally {
      await t.db.sql`update users set disabled_at = null where id = ${bo.id}`
    }
  })
})

describe('without a mail server', () => {
  let plain: TestApp
  beforeAll(async () => {
    plain = await createTestApp()
  })
  afterAll(() => plain?.close())

  it('refuses to send, on the page and in JSON, and an address change keeps the address verified', async () => {
    await setUp(plain.app)
    const { id } = await addUser(plain, { name: 'Cy', email: 'cy@example.com', password: 'cy-password' })
    const { client } = await signInAs(plain.app, 'cy@example.com', 'cy-password')
    const page = await client.request('POST', '/verification_email/', { form: {} })
    expect(page.status).toBe(400)
    expect(await page.text()).toContain('The mail server is not configured.')
    const json = await client.request('POST', '/verification_email/', { headers: { accept: 'application/json' } })
    expect(json.status).toBe(400)
    expect(await json.json()).toEqual({ message: 'The mail server is not configured.' })
    expect((await client.post(`/api/users/${id}`, { email: 'cy.new@example.com' })).status).toBe(200)
    const [row] = await plain.db.sql<{ v: boolean }[]>`select is_email_verified as v from users where id = ${id}`
    expect(row.v).toBe(true)
    const jobs = await plain.db.sql`select 1 from graphile_worker.jobs where task_identifier = 'send_mail'`
    expect(jobs).toHaveLength(0)
  })
})
