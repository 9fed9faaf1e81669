/**
 * The lists as an organization's work grows, at the sizes a busy team reaches: 100,000 queries, 10,000 dashboards
 * (40,000 widgets on 10,000 visualizations), 10,000 alerts and 10,000 users, over six sources shared with four
 * groups. One real Sightline process (web and worker) on its own embedded PostgreSQL, seeded in bulk with
 * `generate_series`. The admin and a member who sees three of the six sources (one of them view-only) each ask for
 * every list and page in turn, sequentially: p50 / p95 per list and role (target: every one under 100 ms p95), and
 * Sightline's resident memory while it serves the unpaged `api/alerts` (target: flat in the number of alerts).
 *
 * The member's answers are checked as they are timed: no query, dashboard or alert on a source outside their groups.
 *
 * `NODE_ENV=production npx tsx bench/lists-growth.ts` (after `npm run build`); sizes from BENCH_QUERIES,
 * BENCH_DASHBOARDS, BENCH_ALERTS, BENCH_USERS, and BENCH_REQUESTS per list; BENCH_HOLD=1 seeds, then waits for
 * Ctrl-C. Prints the figures and writes bench/lists-growth.json.
 */
import fs from 'node:fs'
import path from 'node:path'
import { hashPassword } from '../src/credentials/index.ts'
import { HttpSession, machine, startBenchSightline, type BenchSightline } from './sightline.ts'

const QUERIES = Number(process.env.BENCH_QUERIES ?? 100000)
const DASHBOARDS = Number(process.env.BENCH_DASHBOARDS ?? 10000)
const ALERTS = Number(process.env.BENCH_ALERTS ?? 10000)
const USERS = Number(process.env.BENCH_USERS ?? 10000)
const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 30)
const SOURCES = 6
const MEMBER = { email: 'member@example.com', password: 'member password' }
const TARGET_P95_MS = 100

/** Sightline's resident memory in MB, from /proc. */
function rssMb(pid: number): number {
  if (!fs.existsSync(`/proc/${pid}/status`)) throw new Error(`Sightline (pid ${pid}) is gone`)
  const line = fs.readFileSync(`/proc/${pid}/status`, 'utf8').split('\n').find((l) => l.startsWith('VmRSS:'))
  return Math.round(Number(line?.split(/\s+/)[1] ?? 0) / 1024)
}

/**
 * Six sources: 1 for everyone (default), 2 for Analysts, 3 and 4 for Finance, 5 for Operations, 6 for Finance and
 * view-only for Analysts. The member is in default and Analysts: sources 1, 2 and 6. Returns the member's id and
 * the ids of the sources they must never see.
 */
async function seed({ sql }: BenchSightline) {
  const [{ id: orgId }] = await sql<{ id: number }[]>`select id from organizations limit 1`
  const [{ id: adminId }] = await sql<{ id: number }[]>`select id from users order by id limit 1`
  const [{ id: defaultGroup }] = await sql<{ id: number }[]>`select id from groups where org_id = ${orgId} and name = 'default'`
  const [analysts, finance, operations] = await sql<{ id: number }[]>`
    insert into groups (org_id, name, permissions)
    select ${orgId}, n, permissions from groups, unnest(array['Analysts', 'Finance', 'Operations']) n where id = ${defaultGroup}
    order by n returning id`
  const sources = await sql<{ id: number }[]>`
    insert into data_sources (org_id, name, type, options)
    select ${orgId}, 'Source ' || g, 'pg', '{"host": "127.0.0.1", "dbname": "postgres"}' from generate_series(1, ${SOURCES}) g
    order by g returning id`
  const s = sources.map((r) => r.id)
  await sql`insert into data_source_groups (data_source_id, group_id, view_only) values
    (${s[0]}, ${defaultGroup}, false), (${s[1]}, ${analysts.id}, false), (${s[2]}, ${finance.id}, false),
    (${s[3]}, ${finance.id}, true), (${s[4]}, ${operations.id}, false), (${s[5]}, ${finance.id}, false),
    (${s[5]}, ${analysts.id}, true)`
  const hash = await hashPassword(MEMBER.password)
  const [{ id: memberId }] = await sql<{ id: number }[]>`
    insert into users (org_id, name, email, password_hash) values (${orgId}, 'Bench Member', ${MEMBER.email}, ${hash}) returning id`
  await sql`insert into user_groups (user_id, group_id) values (${memberId}, ${defaultGroup}), (${memberId}, ${analysts.id})`
  // the rest of the team: everyone in default, a third in each other group
  const team = await sql<{ id: number }[]>`
    insert into users (org_id, name, email, password_hash)
    select ${orgId}, 'Person ' || g, 'person' || g || '@example.com', ${hash} from generate_series(1, ${USERS - 2}) g returning id`
  const teamIds = sql.array(team.map((u) => u.id))
  await sql`
    insert into user_groups (user_id, group_id)
    select u, ${defaultGroup} from unnest(${teamIds}::bigint[]) u
    union all
    select u, (${sql.array([analysts.id, finance.id, operations.id])}::bigint[])[1 + u % 3] from unnest(${teamIds}::bigint[]) u`
  const authors = sql.array([adminId, memberId, ...team.slice(0, 50).map((u) => u.id)])

  await sql`
    insert into queries (org_id, data_source_id, user_id, last_modified_by_id, name, description, query, query_hash, api_key_hash,
      is_draft, schedule, schedule_next_at, tags, created_at, updated_at)
    select ${orgId}, (${sql.array(s)}::bigint[])[1 + g % ${SOURCES}],
      case when g % 7 = 0 then ${memberId}::bigint else (${authors}::bigint[])[1 + g % 52] end, ${adminId},
      (array['Orders','Revenue','Signups','Churn','Latency'])[1 + g % 5] || ' by ' || (array['day','week','region','plan'])[1 + (g / 5) % 4] || ' ' || g,
      case when g % 3 = 0 then 'How the team tracks ' || g end,
      'select day, count(*) from events_' || (g % 50) || ' where kind = ''' || (array['click','view','buy'])[1 + g % 3] || ''' group by day',
      md5(g::text), sha256(('bench key ' || g)::bytea), g % 10 = 0,
      case when g % 20 = 0 then '{"interval": 3600}'::jsonb end,
      case when g % 20 = 0 then now() + case when g % 20000 = 0 then -interval '1 second' else interval '2 hours' + (g % 3600) * interval '1 second' end end,
      case when g % 4 = 0 then array['team ' || (g % 12)] else '{}' end,
      now() - g * interval '1 minute', now() - g * interval '30 seconds'
    from generate_series(1, ${QUERIES}) g`
  // a visualization on every tenth query; four widgets on each dashboard, on visualizations of any source (one of
  // them text on every fifth dashboard)
  await sql`insert into visualizations (query_id, type, name) select id, 'TABLE', 'Table' from queries where id % 10 = 0`
  await sql`
    insert into dashboards (org_id, user_id, name, slug, is_draft, tags, created_at)
    select ${orgId}, case when g % 9 = 0 then ${memberId}::bigint else (${authors}::bigint[])[1 + g % 52] end, 'Dashboard ' || g,
      'dashboard-' || g, g % 10 = 0, case when g % 3 = 0 then array['area ' || (g % 8)] else '{}' end, now() - g * interval '1 minute'
    from generate_series(1, ${DASHBOARDS}) g`
  await sql`
    insert into widgets (dashboard_id, visualization_id, text, options)
    select d.id, case when d.id % 5 = 0 and k = 4 then null else v.ids[1 + (d.id * 7 + k * 1931) % cardinality(v.ids)] end, '', '{}'
    from (select array_agg(id order by id) as ids from visualizations) v, dashboards d cross join generate_series(1, 4) k`
  // dashboards whose only widget is on a source the member cannot read: they must not be listed to the member
  const hidden = s.slice(2, 5)
  await sql`
    with d as (
      insert into dashboards (org_id, user_id, name, slug, is_draft, tags)
      select ${orgId}, ${adminId}, 'Forbidden ' || g, 'forbidden-' || g, false, '{}' from generate_series(1, 20) g returning id)
    insert into widgets (dashboard_id, visualization_id, text, options)
    select d.id, (select z.id from visualizations z join queries q on q.id = z.query_id
                  where q.data_source_id = any(${sql.array(hidden)}::bigint[]) order by z.id limit 1), '', '{}' from d`
  await sql`
    insert into alerts (org_id, user_id, query_id, name, options, state, created_at)
    select ${orgId}, q.user_id, q.id, 'Alert on ' || q.name,
      '{"column": "count", "op": ">", "value": 10, "selector": "first", "muted": false}',
      (array['ok','triggered','unknown'])[1 + q.id % 3], now() - q.id * interval '1 second'
    from queries q order by q.id limit ${ALERTS}`
  await sql`vacuum analyze`
  return { hidden }
}

const sightline = await startBenchSightline('lists-growth')
const { sql, admin, base } = sightline
const figures: Record<string, unknown> = {
  ...machine(), queries: QUERIES, dashboards: DASHBOARDS, alerts: ALERTS, users: USERS, sources: SOURCES, requests: REQUESTS,
}
try {
  const began = Date.now()
  const { hidden } = await seed(sightline)
  figures.seedSeconds = Math.round((Date.now() - began) / 100) / 10
  if (process.env.BENCH_HOLD) {
    // for reading plans by hand: the seeded database and Sightline stay up until Ctrl-C
    console.log(`seeded; database ${sightline.databaseUrl}, Sightline ${base}; Ctrl-C to stop`)
    await new Promise(() => {})
  }

  const member = new HttpSession(base)
  const signIn = await fetch(`${base}/login`, {
    method: 'POST', redirect: 'manual', body: new URLSearchParams(MEMBER), headers: { 'content-type': 'application/x-www-form-urlencoded' },
  })
  member.keep(signIn)
  if (signIn.status !== 302) throw new Error(`member sign-in: ${signIn.status}`)

  // rights at scale: the member's lists hold nothing on the sources outside their groups
  const forbidden = new Set(hidden)
  const memberQueries = await member.api<{ results: { data_source_id: number }[] }>('GET', '/api/queries?page_size=250')
  const memberDashboards = await member.api<{ results: { name: string }[]; count: number }>('GET', '/api/dashboards?q=forbidden')
  const memberAlerts = await member.api<{ query: { data_source_id: number } }[]>('GET', '/api/alerts')
  if (memberQueries.results.some((q) => forbidden.has(q.data_source_id))) throw new Error('member listed a forbidden query')
  if (memberDashboards.count) throw new Error(`member listed ${memberDashboards.count} forbidden dashboards`)
  if (memberAlerts.some((a) => forbidden.has(a.query.data_source_id))) throw new Error('member listed an alert on a forbidden query')
  figures.memberSees = { alerts: memberAlerts.length, forbiddenDashboards: memberDashboards.count }

  const json = 'application/json'
  const lists: [string, string, string?][] = [
    ['api_dashboards', '/api/dashboards', json], ['page_dashboards', '/dashboards'],
    ['api_queries', '/api/queries', json], ['page_queries', '/queries'],
    ['api_queries_search', '/api/queries?q=revenue%20region', json], ['api_queries_search_common', '/api/queries?q=orders', json],
    ['page_queries_search', '/queries?q=revenue'], ['page_home', '/'], ['page_alerts', '/alerts'],
  ]
  const slow: string[] = []
  for (const [role, session] of [['admin', admin], ['member', member]] as const) {
    const byList: Record<string, { p95Ms: number }> = {}
    for (const [name, url, accept] of lists) {
      byList[name] = await session.timeGets(url, REQUESTS, accept)
      console.log(role, name, byList[name])
    }
    if (role === 'admin') {
      byList.api_outdated = await session.timeGets('/api/admin/queries/outdated', REQUESTS, json)
      byList.page_status = await session.timeGets('/admin/status', REQUESTS)
    }
    for (const [name, f] of Object.entries(byList)) if (f.p95Ms >= TARGET_P95_MS) slow.push(`${role} ${name} ${f.p95Ms} ms`)
    figures[role] = byList
  }

  // memory while serving the unpaged alerts list: sampled every 10 ms during the requests
  for (const [role, session] of [['admin', admin], ['member', member]] as const) {
    const before = rssMb(sightline.pid)
    let peak = before
    const sampler = setInterval(() => { try { peak = Math.max(peak, rssMb(sightline.pid)) } catch { clearInterval(sampler) } }, 10)
    const alertsTimes = await session.timeGets('/api/alerts', Math.min(REQUESTS, 20), json)
    clearInterval(sampler)
    figures[`api_alerts_${role}`] = { ...alertsTimes, rssBeforeMb: before, rssPeakMb: peak }
  }
  figures.over100msP95 = slow

  console.log(JSON.stringify(figures, null, 2))
  fs.writeFileSync(path.join(import.meta.dirname, 'lists-growth.json'), JSON.stringify(figures, null, 2) + '\n')
} finally {
  await sightline.stop()
}
