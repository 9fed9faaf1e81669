/**
 * The users admin as an organization of 10,000 people meets it, with one real Sightline process (web and worker) on
 * its own embedded PostgreSQL and a real SMTP server in this process:
 *   - GET api/users with 10,000 users: the first page and a search, p50 of 50 (< 20 ms each);
 *   - inviting 100 people in a row with mail configured: each POST api/users's time (p95 < 50 ms: the mail leaves
 *     through the worker's queue, not the request), and how long until all 100 invitations reached the SMTP server
 *     (< 10 s).
 * `NODE_ENV=production npx tsx bench/users.ts`; prints the figures and writes bench/users.json.
 */
import fs from 'node:fs'
import path from 'node:path'
import { performance } from 'node:perf_hooks'
import { SMTPServer } from 'smtp-server'
import { HOST, sleep } from './server.ts'
import { machine, percentile, round, startBenchSightline } from './sightline.ts'

const USERS = 10_000
const REQUESTS = 50
const INVITES = 100
const figures: Record<string, unknown> = machine()

/** Every invitation the SMTP server accepted, with when it arrived. */
const delivered: number[] = []
const smtp = new SMTPServer({
  authOptional: true, disabledCommands: ['STARTTLS'], logger: false,
  onData(stream, _session, callback) {
    stream.on('data', () => undefined)
    stream.on('end', () => {
      delivered.push(performance.now())
      callback()
    })
  },
})
await new Promise<void>((resolve) => smtp.listen(0, HOST, resolve))
const smtpPort = (smtp.server.address() as { port: number }).port

const sightline = await startBenchSightline('users', {
  SIGHTLINE_MAIL_SERVER: HOST, SIGHTLINE_MAIL_PORT: String(smtpPort), SIGHTLINE_MAIL_DEFAULT_SENDER: 'Sightline <sightline@example.com>',
})
const { sql, admin, base } = sightline
try {
  // 10,000 colleagues, written straight into the database, each in the default group
  const [{ id: orgId }] = await sql<{ id: number }[]>`select id from organizations limit 1`
  const [{ id: groupId }] = await sql<{ id: number }[]>`select id from groups where org_id = ${orgId} and name = 'default'`
  const users = await sql<{ id: number }[]>`
    insert into users (org_id, name, email, is_invitation_pending, created_at, active_at)
    select ${orgId}, (array['Ada','Grace','Alan','Edsger','Barbara'])[1 + g % 5] || ' ' || (array['Lovelace','Hopper','Turing','Dijkstra','Liskov'])[1 + (g / 5) % 5] || ' ' || g,
           'person' || g || '@example.com', g % 10 = 0, now() - g * interval '1 minute', case when g % 3 = 0 then now() - g * interval '1 second' end
      from generate_series(1, ${USERS}) g
    returning id`
  await sql`insert into user_groups (user_id, group_id) select id, ${groupId} from unnest(${sql.array(users.map((u) => u.id))}::bigint[]) id`
  await sql`analyze`
  figures.users_10k = {
    api_page1: await admin.timeGets('/api/users', REQUESTS, 'application/json'),
    api_search: await admin.timeGets('/api/users?q=hopper', REQUESTS, 'application/json'),
    api_search_email: await admin.timeGets('/api/users?q=person4242', REQUESTS, 'application/json'),
    api_pending: await admin.timeGets('/api/users?pending=true', REQUESTS, 'application/json'),
    page_users: await admin.timeGets('/users', REQUESTS),
  }

  // 100 invitations in a row, mail configured: the request only queues the mail
  const times: number[] = []
  delivered.length = 0
  const began = performance.now()
  for (let i = 0; i < INVITES; i++) {
    const t0 = performance.now()
    const res = await fetch(`${base}/api/users`, {
      method: 'POST', body: JSON.stringify({ name: `Invitee ${i}`, email: `invitee${i}@example.com` }),
      headers: { cookie: admin.cookie, 'x-csrf-token': admin.csrf, 'content-type': 'application/json' },
    })
    const body = await res.json() as { invite_link?: string }
    if (!res.ok) throw new Error(`POST /api/users: ${res.status} ${JSON.stringify(body)}`)
    if (body.invite_link) throw new Error('mail is configured, yet the answer carried the link')
    times.push(performance.now() - t0)
  }
  const deadline = performance.now() + 60_000
  while (delivered.length < INVITES && performance.now() < deadline) await sleep(20)
  figures.invite_100 = {
    p50Ms: round(percentile(times, 0.5)), p95Ms: round(percentile(times, 0.95)), maxMs: round(Math.max(...times)),
    delivered: delivered.length,
    allDeliveredAfterMs: delivered.length === INVITES ? round(Math.max(...delivered) - began) : null,
  }

  console.log(JSON.stringify(figures, null, 2))
  fs.writeFileSync(path.join(import.meta.dirname, 'users.json'), JSON.stringify(figures, null, 2) + '\n')
} finally {
  await sightline.stop()
  await new Promise<void>((resolve) => smtp.close(() => resolve()))
}
