/**
 * The users admin as an organization of 10,000 people meets it, with one real Sightline process (web and worker) on
 * its own embedded PostgreSQL and a real SMTP server in this process:
 *   - GET api/users with 10,000 users: the first page and a search, p50 of 50 (< 20 ms each);
 *   - inviting 100 people in a row with mail configured: each POST api/users's time (p95 < 50 ms: the mail leaves
 *     through the worker's queue, not the request), and how long until all 100 invitations reached the SMTP server
 *     (< 10 s).
 * `NODE_ENV=production npx tsx bench/users.ts`; prints the figures and writes bench/users.json.
 */
import { spawn, type ChildProcess } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { performance } from 'node:perf_hooks'
import { SMTPServer } from 'smtp-server'
import { useEmbeddedPostgres } from '../src/db/embedded.ts'
import { connect } from '../src/db/sql.ts'
import { ADMIN } from './load.ts'
import { freePort, HOST, ROOT, sleep } from './server.ts'

const USERS = 10_000
const REQUESTS = 50
const INVITES = 100
const root = fs.mkdtempSync(path.join(os.tmpdir(), 'sightline-bench-users-'))
fs.chmodSync(root, 0o755)
const pg = await useEmbeddedPostgres(root, 'postgres')
const sql = connect(pg.url, { max: 2 })
const port = await freePort()
const base = `http://${HOST}:${port}`
let child: ChildProcess | undefined
const figures: Record<string, unknown> = { date: new Date().toISOString(), cpus: os.cpus().length, loadavg: os.loadavg()[0] }
const round = (n: number) => Math.round(n * 10) / 10
const percentile = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * p))]

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

let cookies: { name: string; value: string }[] = []
const cookie = () => cookies.map((c) => `${c.name}=${c.value}`).join('; ')
const csrf = () => cookies.find((c) => c.name === 'csrf_token')?.value ?? ''
const setCookies = (res: Response) => {
  for (const line of res.headers.getSetCookie()) {
    const [name, value] = line.split(';')[0].split('=')
    cookies = [...cookies.filter((c) => c.name !== name), { name, value }]
  }
}

async function timeRequests(url: string) {
  const times: number[] = []
  for (let i = 0; i < REQUESTS + 5; i++) {
    const began = performance.now()
    const res = await fetch(base + url, { headers: { cookie: cookie() } })
    await res.arrayBuffer()
    if (!res.ok) throw new Error(`${url}: ${res.status}`)
    if (i >= 5) times.push(performance.now() - began)
  }
  return { p50Ms: round(percentile(times, 0.5)), p95Ms: round(percentile(times, 0.95)), maxMs: round(Math.max(...times)) }
}

try {
  child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
    cwd: ROOT, stdio: ['ignore', 'ignore', 'inherit'],
    env: {
      ...process.env, NODE_ENV: 'production', SIGHTLINE_LOG_LEVEL: 'warn', DATABASE_URL: pg.url, SIGHTLINE_PROCESS: 'all',
      PORT: String(port), HOST, SIGHTLINE_DATA_DIR: root,
      SIGHTLINE_MAIL_SERVER: HOST, SIGHTLINE_MAIL_PORT: String(smtpPort), SIGHTLINE_MAIL_DEFAULT_SENDER: 'Sightline <sightline@example.com>',
    },
  })
  for (let i = 0; i < 600 && !(await fetch(`${base}/ping`).then((r) => r.ok, () => false)); i++) await sleep(100)
  const setup = await fetch(`${base}/setup`, { method: 'POST', redirect: 'manual', body: new URLSearchParams(ADMIN), headers: { 'content-type': 'application/x-www-form-urlencoded' } })
  setCookies(setup)
  if (!csrf()) setCookies(await fetch(`${base}/api/session`, { headers: { cookie: cookie() } }))

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
    api_page1: await timeRequests('/api/users'),
    api_search: await timeRequests('/api/users?q=hopper'),
    api_search_email: await timeRequests('/api/users?q=person4242'),
    api_pending: await timeRequests('/api/users?pending=true'),
    page_users: await timeRequests('/users'),
  }

  // 100 invitations in a row, mail configured: the request only queues the mail
  const times: number[] = []
  delivered.length = 0
  const began = performance.now()
  for (let i = 0; i < INVITES; i++) {
    const t0 = performance.now()
    const res = await fetch(`${base}/api/users`, {
      method: 'POST', body: JSON.stringify({ name: `Invitee ${i}`, email: `invitee${i}@example.com` }),
      headers: { cookie: cookie(), 'x-csrf-token': csrf(), 'content-type': 'application/json' },
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
  if (child && child.exitCode === null) {
    child.kill('SIGTERM')
    await new Promise((r) => child!.once('exit', r))
  }
  await sql.end()
  await pg.release()
  await new Promise<void>((resolve) => smtp.close(() => resolve()))
  fs.rmSync(root, { recursive: true, force: true })
}
