/**
 * The git export of a large organization and its re-import: 1,000 queries, 2,000 visualizations, 100 dashboards with
 * 1,500 widgets and 200 alerts (seeded straight into the store), exported through GET api/content and applied back
 * unchanged through POST api/imports with the files, against a real Sightline on its own embedded PostgreSQL.
 * Targets: the export in under 5 s; the re-import in under 5 s and writing nothing (rows of the content tables whose
 * row version changed, rows gone or added: 0).
 * `NODE_ENV=production npx tsx bench/git-export.ts`; prints the figures and writes bench/git-export.json.
 */
import crypto from 'node:crypto'
import fs from 'node:fs'
import path from 'node:path'
import { performance } from 'node:perf_hooks'
import { machine, pgSourceOptions, round, startBenchSightline } from './sightline.ts'

const SIZE = { queries: 1000, visualizationsPerQuery: 2, dashboards: 100, widgetsPerDashboard: 15, alerts: 200 }
const TARGET_MS = 5000
const TABLES = ['queries', 'query_versions', 'visualizations', 'dashboards', 'widgets', 'alerts', 'alert_subscriptions', 'destinations', 'query_snippets', 'groups', 'data_source_groups', 'object_keys']
const figures: Record<string, unknown> = { ...machine(), size: SIZE }

const sightline = await startBenchSightline('git-export')
try {
  const { admin, sql } = sightline
  const source = await admin.api<{ id: number }>('POST', '/api/data_sources', { name: 'Warehouse', type: 'pg', options: pgSourceOptions(sightline.databaseUrl) })
  const [{ org_id: orgId, id: userId }] = await sql<{ org_id: number; id: number }[]>`select org_id, id from users order by id limit 1`
  // the content, as people would have made it: parameters, a schedule on some, tags, two charts per query
  const queries = Array.from({ length: SIZE.queries }, (_, i) => ({
    org_id: orgId, user_id: userId, data_source_id: source.id, name: `Query ${i} of the sales team`, is_draft: false,
    query: `select region, sum(amount) as total\nfrom sales\nwhere day > current_date - {{ days }}\ngroup by 1 -- ${i}\n`,
    options: sql.json({ parameters: [{ name: 'days', title: 'Days', type: 'number', value: 30 }] }),
    schedule: i % 10 === 0 ? sql.json({ interval: 3600, time: null, day_of_week: null, until: null }) : null,
    tags: sql.array(['sales', `team-${i % 7}`]), api_key_hash: crypto.randomBytes(32),
  }))
  const queryIds: number[] = []
  for (let i = 0; i < queries.length; i += 250) queryIds.push(...(await sql<{ id: number }[]>`insert into queries ${sql(queries.slice(i, i + 250))} returning id`).map((r) => Number(r.id)))
  const vizRows = queryIds.flatMap((q) => [
    { query_id: q, type: 'TABLE', name: 'Table', options: sql.json({}) },
    { query_id: q, type: 'COUNTER', name: 'Total', options: sql.json({ counterColName: 'total', rowNumber: 1, stringDecimal: 0 }) },
  ])
  const vizIds: number[] = []
  for (let i = 0; i < vizRows.length; i += 500) vizIds.push(...(await sql<{ id: number }[]>`insert into visualizations ${sql(vizRows.slice(i, i + 500))} returning id`).map((r) => Number(r.id)))
  const dashboards = Array.from({ length: SIZE.dashboards }, (_, i) => ({ org_id: orgId, user_id: userId, name: `Board ${i}`, slug: `board-${i}`, is_draft: false, tags: sql.array(['sales']) }))
  const dashboardIds = (await sql<{ id: number }[]>`insert into dashboards ${sql(dashboards)} returning id`).map((r) => Number(r.id))
  const widgets = dashboardIds.flatMap((d, i) => Array.from({ length: SIZE.widgetsPerDashboard }, (_, j) => ({
    dashboard_id: d, visualization_id: vizIds[(i * SIZE.widgetsPerDashboard + j) % vizIds.length], text: '', width: 1,
    options: sql.json({ position: { col: (j % 2) * 3, row: Math.floor(j / 2) * 8, sizeX: 3, sizeY: 8 }, parameterMappings: {} }),
  })))
  for (let i = 0; i < widgets.length; i += 500) await sql`insert into widgets ${sql(widgets.slice(i, i + 500))}`
  const alerts = Array.from({ length: SIZE.alerts }, (_, i) => ({
    org_id: orgId, user_id: userId, query_id: queryIds[i * 5], name: `Sales alert ${i}`, rearm: 600, options: sql.json({ column: 'total', op: '<', value: i }),
  }))
  await sql`insert into alerts ${sql(alerts)}`

  const began = performance.now()
  const { files } = await admin.api<{ files: Record<string, string> }>('GET', '/api/content')
  figures.export = { seconds: round((performance.now() - began) / 1000), files: Object.keys(files).length, bytes: Buffer.byteLength(JSON.stringify(files)) }

  const versions = async () => {
    const out: Record<string, { rows: number; since: number }> = {}
    return async (since: bigint) => {
      for (const t of TABLES) {
        const [r] = await sql<{ rows: number; since: number }[]>`
          select count(*)::int as rows, count(*) filter (where xmin::text::bigint >= ${since.toString()}::bigint)::int as since from ${sql(t)}`
        out[t] = r
      }
      return out
    }
  }
  const [{ next }] = await sql<{ next: string }[]>`select pg_snapshot_xmax(pg_current_snapshot())::text as next`
  const read = await versions()
  const before = structuredClone(await read(BigInt(next)))
  const reBegan = performance.now()
  const run = await admin.api<{ kinds: Record<string, { created: number; updated: number; unchanged: number; pruned: number }>; errors: unknown[] }>('POST', '/api/imports', { files })
  const reMs = performance.now() - reBegan
  const after = await read(BigInt(next))
  const writes = TABLES.reduce((n, t) => n + after[t].since + Math.abs(after[t].rows - before[t].rows), 0)
  figures.reimport = { seconds: round(reMs / 1000), writes, errors: run.errors.length, kinds: run.kinds }
  figures.peak_web_mb = Math.round(Number(/VmHWM:\s+(\d+) kB/.exec(fs.readFileSync(`/proc/${sightline.pid}/status`, 'utf8'))?.[1] ?? 0) / 1024)
} finally {
  await sightline.stop()
}

const exp = figures.export as { seconds: number; files: number; bytes: number }
const re = figures.reimport as { seconds: number; writes: number; errors: number }
console.table({
  'export (s)': { value: exp.seconds, target: `< ${TARGET_MS / 1000}` },
  'files exported': { value: exp.files, target: '' },
  're-import, nothing changed (s)': { value: re.seconds, target: `< ${TARGET_MS / 1000}` },
  'rows written by the re-import': { value: re.writes, target: '0' },
  'files not applied': { value: re.errors, target: '0' },
  'web process peak (MB)': { value: figures.peak_web_mb, target: '' },
})
fs.writeFileSync(path.join(import.meta.dirname, 'git-export.json'), JSON.stringify(figures, null, 2) + '\n')
process.exitCode = exp.seconds * 1000 < TARGET_MS && re.seconds * 1000 < TARGET_MS && re.writes === 0 && re.errors === 0 ? 0 : 1
