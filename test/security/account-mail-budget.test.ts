import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { MailSettings } from '../../src/config.ts'
import { ACCOUNT_MAILS_PER_HOUR, mailBudgetTexts } from '../../src/users/index.ts'
import { Client, createTestApp, setUp, type TestApp } from '../helpers/app.ts'

/**
 * A leaked admin key must not make Sightline mail strangers without end: invitations, resent invitations and
 * password resets share an hourly budget per organization once a mail server is configured. Nothing leaves the
 * server without one (the admin is handed the link), so then nothing is counted.
 */
const MAIL: MailSettings = {
  // nothing listens here: the mails only wait in the queue, which is all these tests need
  server: '127.0.0.1', port: 9, useTls: false, useSsl: false, username: undefined, password: undefined,
  defaultSender: 'Sightline <sightline@example.com>',
}

/** Pretend the organization's admins already asked for `n` account mails within the hour. */
async function spend(t: TestApp, n: number, action = 'create') {
  const [{ id: orgId }] = await t.db.sql<{ id: number }[]>`select id from organizations limit 1`
  await t.db.sql`
    insert into events (org_id, user_id, action, object_type, object_id, additional_properties)
    select ${orgId}, null, ${action}, 'user', g::text, '{}'::jsonb from generate_series(1, ${n}) g`
}

describe('with a mail server configured', () => {
  let t: TestApp
  let admin: Client
  let pendingId: number
  beforeAll(async () => {
    t = await createTestApp({ mail: MAIL, baseUrl: 'https://bi.example.com' })
    admin = await setUp(t.app)
    pendingId = (await (await admin.post('/api/users', { name: 'Pat Pending', email: 'pat@example.com' })).json()).id
    await spend(t, ACCOUNT_MAILS_PER_HOUR - 2)
  })
  afterAll(async () => t?.close())

  it('invites up to the hourly budget, then refuses invitations, resends and resets with 429 and a clear message', async () => {
    // the one invitation above plus the spent ones leave exactly one
    expect((await admin.post('/api/users', { name: 'Last One', email: 'last@example.com' })).status).toBe(200)
    for (const [path, body] of [
      ['/api/users', { name: 'Too Many', email: 'too-many@example.com' }],
      [`/api/users/${pendingId}/invite`, {}],
      [`/api/users/${pendingId}/reset_password`, {}],
    ] as const) {
      const res = await admin.post(path, body)
      expect(res.status, path).toBe(429)
      expect(await res.json()).toEqual({ message: mailBudgetTexts.exhausted })
    }
    // the refused invitation made no user
    const list = await (await admin.get('/api/users?pending=true&q=too-many')).json()
    expect(list.count).toBe(0)
  })

  it('counts only the last hour', async () => {
    await t.db.sql`update events set created_at = now() - interval '61 minutes' where object_type = 'user'`
    expect((await admin.post('/api/users', { name: 'Next Hour', email: 'next-hour@example.com' })).status).toBe(200)
  })
})

describe('without a mail server', () => {
  let t: TestApp
  let admin: Client
  beforeAll(async () => {
    t = await createTestApp({ mail: undefined })
    admin = await setUp(t.app)
    await spend(t, ACCOUNT_MAILS_PER_HOUR + 10)
  })
  afterAll(async () => t?.close())

  it('creates users past the budget, since the admin hands the links over and no mail leaves', async () => {
    const res = await admin.post('/api/users', { name: 'Bulk Import', email: 'bulk@example.com' })
    expect(res.status).toBe(200)
    expect((await res.json()).invite_link).toContain('/invite/')
  })
})
