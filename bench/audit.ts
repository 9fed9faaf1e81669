/**
 * `NODE_ENV=production npx tsx bench/audit.ts`: the audit log with 1,000,000 events (plus 200,000 browser-reported
 * ones that it must skip), written with generate_series over a year, 200 people, a dozen actions. Times GET
 * api/audit unfiltered, filtered by person, by action, by object, by time range, a deep page (the cursor from far
 * back), the /admin/audit page, and a 10,000-row CSV. Target: every filtered page under 200 ms p95.
 */
import fs from 'node:fs'
import path from 'node:path'
import { machine, round, startBenchSightline } from './sightline.ts'

const EVENTS = 1_000_000
const BROWSER_EVENTS = 200_000
const PEOPLE = 200
const REQUESTS = 50
const TARGET_P95_MS = 200
const figures: Record<string, unknown> = machine()

// Sightline's public origin from the environment, so the bench's setup form needs none
const sightline = await startBenchSightline('audit', { SIGHTLINE_BASE_URL: 'http://127.0.0.1' })
const { sql, admin, base } = sightline
try {
  const [{ id: orgId }] = await sql<{ id: number }[]>`select id from organizations limit 1`
  const users = await sql<{ id: number }[]>`
    insert into users (org_id, name, email) select ${orgId}, 'Person ' || g, 'person' || g || '@example.com'
    from generate_series(1, ${PEOPLE}) g returning id`
  const ids = users.map((u) => u.id)
  const began = performance.now()
  await sql`
    insert into events (org_id, user_id, action, object_type, object_id, additional_properties, created_at)
    select ${orgId}, (${sql.array(ids)}::bigint[])[1 + g % ${PEOPLE}],
           (array['login','login_failed','edit','create','delete','add_member','remove_member','regenerate_api_key',
                  'activate_api_key','deactivate_api_key','add_data_source','end_session'])[1 + g % 12],
           (array['redash','query','dashboard','group','user','datasource','destination','settings'])[1 + g % 8],
           (g % 5000)::text, jsonb_build_object('ip', '10.0.' || (g % 250) || '.' || (g % 200)),
           now() - (g * interval '31 seconds')
    from generate_series(1, ${EVENTS}) g`
  await sql`
    insert into events (org_id, user_id, action, object_type, object_id, created_at, from_browser)
    select ${orgId}, (${sql.array(ids)}::bigint[])[1 + g % ${PEOPLE}], 'view', 'query', (g % 5000)::text,
           now() - (g * interval '150 seconds'), true
    from generate_series(1, ${BROWSER_EVENTS}) g`
  await sql`analyze events`
  figures.insertSeconds = round((performance.now() - began) / 1000)

  const person = ids[42]
  const month = `since=${new Date(Date.now() - 120 * 86400_000).toISOString()}&until=${new Date(Date.now() - 90 * 86400_000).toISOString()}`
  // a cursor from deep in the log: the 900,000th event's id, as if someone had paged that far
  const [{ id: deep }] = await sql<{ id: number }[]>`select id from events where not from_browser order by created_at desc, id desc offset 900000 limit 1`
  const pages: Record<string, string> = {
    newest: '/api/audit',
    byPerson: `/api/audit?user_id=${person}`,
    byAction: '/api/audit?action=regenerate_api_key',
    byObject: '/api/audit?object_type=dashboard&object_id=1234',
    byTimeRange: `/api/audit?${month}`,
    personAndAction: `/api/audit?user_id=${person}&action=edit`,
    rareActionAndTime: `/api/audit?action=end_session&${month}`,
    deepCursor: `/api/audit?after=${deep}`,
  }
  const timed: Record<string, unknown> = {}
  for (const [name, url] of Object.entries(pages)) timed[name] = await admin.timeGets(url, REQUESTS, 'application/json')
  timed.page = await admin.timeGets(`/admin/audit?user_id=${person}`, REQUESTS)
  figures.audit_1m = timed

  const csvBegan = performance.now()
  const csv = await fetch(`${base}/api/audit.csv?${month}`, { headers: { cookie: admin.cookie } })
  const text = await csv.text()
  figures.csv = { rows: text.split('\r\n').length - 2, seconds: round((performance.now() - csvBegan) / 1000), bytes: text.length }

  const worst = Math.max(...Object.values(timed).map((f) => (f as { p95Ms: number }).p95Ms))
  figures.worstP95Ms = worst
  figures.targetMet = worst < TARGET_P95_MS
  console.log(JSON.stringify(figures, null, 2))
  fs.writeFileSync(path.join(import.meta.dirname, 'audit.json'), JSON.stringify(figures, null, 2) + '\n')
} finally {
  await sightline.stop()
}
