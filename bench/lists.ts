/**
 * The lists as a team's work grows, with one real Sightline process (web and worker) on its own embedded PostgreSQL,
 * seeded in bulk to 100,000 queries, 10,000 dashboards (40,000 widgets) and 10,000 alerts over four sources shared
 * with three groups; a member who sees two of the four sources and the admin each ask for every list and page in
 * turn (sequential requests): p50 / p95 per list and role (target: all under 100 ms p95), and Sightline's resident
 * memory while it serves the unpaged `api/alerts` (target: flat in the number of alerts).
 * `NODE_ENV=production npx tsx bench/lists.ts`; prints the figures and writes bench/lists.json.
 */
import fs from 'node:fs'
import path from 'node:path'
import { hashPassword } from '../src/credentials/index.ts'
import { HttpSession, machine, startBenchSightline } from './sightline.ts'

const QUERIES = Number(process.env.BENCH_QUERIES ?? 100000)
const DASHBOARDS = Number(process.env.BENCH_DASHBOARDS ?? 10000)
const ALERTS = Number(process.env.BENCH_ALERTS ?? 10000)
const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 30)
const MEMBER = { email: 'member@example.com', password: 'member password' }
const figures: Record<string, unknown> = { ...machine(), queries: QUERIES, dashboards: DASHBOARDS, alerts: ALERTS, requests: REQUESTS }

/** Sightline's resident memory in MB, from /proc. */
function rssMb(pid: number): number {
  const line = fs.readFileSync(`/proc/${pid}/status`, 'utf8').split('\n').find((l) => l.startsWith('VmRSS:'))
  return Math.round(Number(line?.split(/\s+/)[1] ?? 0) / 1024)
}

const sightline = await startBenchSightline('lists')
const { sql, admin, base } = sightline
try {
  const [{ id: orgId }] = await sql<{ id: number }[]>`select id from organizations limit 1`
  const [{ id: adminId }] = await sql<{ id: number }[]>`select id from users order by id limit 1`
  const [{ id: defaultGroup }] = await sql<{ id: number }[]>`select id from groups where org_id = ${orgId} and name = 'default'`
  const [analysts, finance] = await sql<{ id: number }[]>`
    insert into groups (org_id, name, permissions)
    select ${orgId}, n, permissions from groups, unnest(array['Analysts', 'Finance']) n where id = ${defaultGroup}
    order by n returning id`
  // four sources: one for everyone, one for analysts, two for finance; the member is in default and analysts
  const sources = await sql<{ id: number }[]>`
    insert into data_sources (org_id, name, type, options)
    select ${orgId}, 'Source ' || g, 'pg', '{"host": "127.0.0.1", "dbname": "postgres"}' from generate_series(1, 4) g returning id`
  await sql`insert into data_source_groups (data_source_id, group_id, view_only) values
    (${sources[0].id}, ${defaultGroup}, false), (${sources[1].id}, ${analysts.id}, false),
    (${sources[2].id}, ${finance.id}, false), (${sources[3].id}, ${finance.id}, true)`
  const [{ id: memberId }] = await sql<{ id: number }[]>`
    insert into users (org_id, name, email, password_hash) values (${orgId}, 'Bench Member', ${MEMBER.email}, ${await hashPassword(MEMBER.password)})
    returning id`
  await sql`insert into user_groups (user_id, group_id) values (${memberId}, ${defaultGroup}), (${memberId}, ${analysts.id})`

  const sourceIds = sql.array(sources.map((s) => s.id))
  await sql`
    insert into queries (org_id, data_source_id, user_id, last_modified_by_id, name, description, query, query_hash, api_key_hash,
      is_draft, schedule, schedule_next_at, tags, created_at, updated_at)
    select ${orgId}, (${sourceIds}::bigint[])[1 + g % 4], case when g % 7 = 0 then ${memberId}::bigint else ${adminId}::bigint end, ${adminId},
      (array['Orders','Revenue','Signups','Churn','Latency'])[1 + g % 5] || ' by ' || (array['day','week','region','plan'])[1 + (g / 5) % 4] || ' ' || g,
      case when g % 3 = 0 then 'How the team tracks ' || g end,
      'select day, count(*) from events_' || (g % 50) || ' where kind = ''' || (array['click','view','buy'])[1 + g % 3] || ''' group by day',
      md5(g::text), sha256(('bench key ' || g)::bytea), g % 10 = 0,
      case when g % 20 = 0 then '{"interval": 3600}'::jsonb end,
      case when g % 20 = 0 then now() + (g % 3600) * interval '1 second' end,
      case when g % 4 = 0 then array['team ' || (g % 12)] else '{}' end,
      now() - g * interval '1 minute', now() - g * interval '30 seconds'
    from generate_series(1, ${QUERIES}) g`
  // a visualization on every tenth query; four widgets on each dashboard (one of them text on every fifth dashboard)
  await sql`insert into visualizations (query_id, type, name) select id, 'TABLE', 'Table' from queries where id % 10 = 0`
  await sql`
    insert into dashboards (org_id, user_id, name, slug, is_draft, tags, created_at)
    select ${orgId}, case when g % 9 = 0 then ${memberId}::bigint else ${adminId}::bigint end, 'Dashboard ' || g, 'dashboard-' || g,
      g % 10 = 0, case when g % 3 = 0 then array['area ' || (g % 8)] else '{}' end, now() - g * interval '1 minute'
    from generate_series(1, ${DASHBOARDS}) g`
  await sql`
    insert into widgets (dashboard_id, visualization_id, text, options)
    select d.id, case when d.id % 5 = 0 and k = 4 then null else v.ids[1 + (d.id * 7 + k * 1931) % cardinality(v.ids)] end, '', '{}'
    from (select array_agg(id order by id) as ids from visualizations) v, dashboards d cross join generate_series(1, 4) k`
  await sql`
    insert into alerts (org_id, user_id, query_id, name, options, state, created_at)
    select ${orgId}, ${adminId}, q.id, 'Alert on ' || q.name, '{"column": "count", "op": ">", "value": 10, "selector": "first", "muted": false}',
      (array['ok','triggered','unknown'])[1 + q.id % 3], now() - q.id * interval '1 second'
    from queries q order by q.id limit ${ALERTS}`
  await sql`vacuum analyze`

  const member = new HttpSession(base)
  const signIn = await fetch(`${base}/login`, {
    method: 'POST', redirect: 'manual', body: new URLSearchParams(MEMBER), headers: { 'content-type': 'application/x-www-form-urlencoded' },
  })
  member.keep(signIn)
  if (signIn.status !== 302) throw new Error(`member sign-in: ${signIn.status}`)

  const json = 'application/json'
  const lists: [string, string, string?][] = [
    ['api_dashboards', '/api/dashboards', json], ['page_dashboards', '/dashboards'],
    ['api_queries', '/api/queries', json], ['page_queries', '/queries'],
    ['api_queries_search', '/api/queries?q=revenue%20region', json], ['page_home', '/'],
    ['page_alerts', '/alerts'],
  ]
  for (const [role, session] of [['admin', admin], ['member', member]] as const) {
    const byList: Record<string, unknown> = {}
    for (const [name, url, accept] of lists) byList[name] = await session.timeGets(url, REQUESTS, accept)
    if (role === 'admin') {
      byList.api_outdated = await session.timeGets('/api/admin/queries/outdated', REQUESTS, json)
      byList.page_status = await session.timeGets('/admin/status', REQUESTS)
    }
    figures[role] = byList
  }

  // memory while serving the unpaged alerts list: sampled every 10 ms during the requests
  const before = rssMb(sightline.pid)
  let peak = before
  const sampler = setInterval(() => { peak = Math.max(peak, rssMb(sightline.pid)) }, 10)
  const alertsTimes = await admin.timeGets('/api/alerts', Math.min(REQUESTS, 20), json)
  clearInterval(sampler)
  figures.api_alerts = { ...alertsTimes, rssBeforeMb: before, rssPeakMb: peak }

  console.log(JSON.stringify(figures, null, 2))
  fs.writeFileSync(path.join(import.meta.dirname, 'lists.json'), JSON.stringify(figures, null, 2) + '\n')
} finally {
  await sightline.stop()
}
