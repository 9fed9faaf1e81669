/**
 * Exports and reports drawn on the server (src/rendering), with one real Sightline process (web and worker) on its
 * own embedded PostgreSQL, which is also the engine the widgets' queries run on:
 *   - a 20-widget dashboard (18 charts of four kinds, a counter, a table; each on a stored result of 365 rows) drawn
 *     for a viewer, its 18 charts as PNGs and the whole as a PDF, as one report send makes them, in this process:
 *     the time (< 1.5 s) and the process's peak resident memory while doing it (< 300 MB), first and median of 5
 *     (the first after the warm-up a worker of an installation with reports makes as it starts, timed apart);
 *   - `GET api/dashboards/{id}/export.pdf` of the same: p50 and max of 10 (< 2 s);
 *   - `GET api/visualizations/{id}/export.png` of one chart: p95 of 50 (< 100 ms).
 * `npm run build` first. `NODE_ENV=production npx tsx bench/exports.ts`; prints the figures and writes
 * bench/exports.json.
 */
import { spawnSync } from 'node:child_process'
import fs from 'node:fs'
import path from 'node:path'
import { principalToRunAs } from '../src/credentials/index.ts'
import { loadConfig } from '../src/config.ts'
import { DONE_CHANNEL, ExecutionSignals } from '../src/db/index.ts'
import { chartPictures, dashboardPdf, drawDashboard, warmRenderer, type RenderDeps } from '../src/rendering/index.ts'
import { ROOT, sleep } from './server.ts'
import { machine, percentile, pgSourceOptions, round, startBenchSightline, type HttpSession } from './sightline.ts'

const WIDGETS = 20
const figures: Record<string, unknown> = machine()

async function runToResult(admin: HttpSession, queryId: number) {
  const started = await admin.api<{ job?: { id: string } }>('POST', `/api/queries/${queryId}/results`, {})
  if (!started.job) return
  for (let i = 0; i < 600; i++) {
    const { job } = await admin.api<{ job: { status: number; error: string } }>('GET', `/api/jobs/${started.job.id}`)
    if (job.status === 3) return
    if (job.status === 4) throw new Error(job.error)
    await sleep(100)
  }
  throw new Error('a query did not finish in a minute')
}

const CHARTS: Record<string, unknown>[] = [
  { globalSeriesType: 'column', columnMapping: { day: 'x', orders: 'y' } },
  { globalSeriesType: 'line', columnMapping: { day: 'x', revenue: 'y' } },
  { globalSeriesType: 'area', columnMapping: { day: 'x', orders: 'y' } },
  { globalSeriesType: 'scatter', columnMapping: { orders: 'x', revenue: 'y' } },
]

/** CPU time (user and system, ms) a process has used: what a request costs whatever else the machine runs. */
const cpuOf = (pid: number) => {
  const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ')
  return (Number(fields[11]) + Number(fields[12])) * 10
}

async function timeGet(session: HttpSession, url: string, pid: number): Promise<{ ms: number; cpuMs: number }> {
  const cpu = cpuOf(pid)
  const began = performance.now()
  const res = await fetch(session.base + url, { headers: { cookie: session.cookie } })
  await res.arrayBuffer()
  if (!res.ok) throw new Error(`${url}: ${res.status}`)
  return { ms: performance.now() - began, cpuMs: cpuOf(pid) - cpu }
}

if (!fs.existsSync(path.join(ROOT, 'dist', 'manifest.json'))) throw new Error('run `npm run build` first')
// measured as Sightline's processes run: package.json's start, web and worker scripts fix glibc's mmap threshold, so
// the large buffers of pictures go back to the system when freed instead of staying in the heap's free lists
if (!process.env.MALLOC_MMAP_THRESHOLD_) {
  const again = spawnSync(process.execPath, [...process.execArgv, ...process.argv.slice(1)], { stdio: 'inherit', env: { ...process.env, MALLOC_MMAP_THRESHOLD_: '131072' } })
  process.exit(again.status ?? 1)
}
const sightline = await startBenchSightline('exports')
const { admin } = sightline
const api = admin.api.bind(admin)
const signals = new ExecutionSignals(sightline.sql, DONE_CHANNEL)
try {
  const ds = await api<{ id: number }>('POST', '/api/data_sources', { name: 'Engine', type: 'pg', options: pgSourceOptions(sightline.databaseUrl) })
  const dashboard = await api<{ id: number }>('POST', '/api/dashboards', { name: 'Morning numbers' })
  let chartViz = 0
  for (let i = 0; i < WIDGETS; i++) {
    const q = await api<{ id: number; visualizations: { id: number }[] }>('POST', '/api/queries', {
      name: `Numbers ${i}`, data_source_id: ds.id,
      query: `select date '2026-01-01' + g as day, (g * ${i + 7}) % 97 as orders, ((g * ${i + 3}) % 89) * 12.5 as revenue from generate_series(0, 364) g`,
    })
    const type = i < 18 ? 'CHART' : i === 18 ? 'COUNTER' : 'TABLE'
    const options = type === 'CHART' ? CHARTS[i % CHARTS.length] : { counterColName: 'orders' }
    const vizId = type === 'TABLE' ? q.visualizations[0].id
      : (await api<{ id: number }>('POST', '/api/visualizations', { query_id: q.id, type, name: `${type} ${i}`, options })).id
    if (i === 0) chartViz = vizId
    await runToResult(admin, q.id)
    await api('POST', '/api/widgets', {
      dashboard_id: dashboard.id, visualization_id: vizId, options: { position: { col: (i % 2) * 3, row: Math.floor(i / 2) * 8, sizeX: 3, sizeY: 8 } },
    })
  }

  // a report's drawing, in this process as a worker would make it
  await signals.start()
  const deps: RenderDeps = { sql: sightline.sql, config: loadConfig({}), secretKey: 'bench', executionsDone: signals }
  const [{ id: adminId }] = await sightline.sql<{ id: number }[]>`select id from users order by id limit 1`
  const viewer = (await principalToRunAs(sightline.sql, adminId))!
  const report = async () => {
    const cpu = process.cpuUsage()
    let peak = process.memoryUsage().rss
    const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 5)
    const began = performance.now()
    const drawn = await drawDashboard(deps, viewer, dashboard.id, {})
    const drawMs = performance.now() - began
    // the PDF draws these charts as vectors (src/rendering/svg-pdf.ts): only the mail's PNGs are rasterised
    const pictures = await chartPictures(drawn.widgets)
    const pngs = [...pictures.values()].map((p) => p.png)
    const pngMs = performance.now() - began - drawMs
    const pdf = await dashboardPdf(drawn, { paper: 'a4', orientation: 'landscape', pictures })
    const ms = performance.now() - began
    const pdfMs = ms - drawMs - pngMs
    const used = process.cpuUsage(cpu)
    const cpuMs = (used.user + used.system) / 1000
    clearInterval(sampler)
    peak = Math.max(peak, process.memoryUsage().rss)
    return { ms, cpuMs, drawMs, pngMs, pdfMs, peakMB: peak / 2 ** 20, pngs: pngs.length, pngKB: pngs.reduce((n, p) => n + p.length, 0) / 1024, pdfKB: pdf.length / 1024 }
  }
  // as a worker of an installation with reports does when it starts (src/reports/warm.ts)
  const warmBegan = performance.now()
  await warmRenderer()
  const warmUpMs = performance.now() - warmBegan
  const baselineMB = process.memoryUsage().rss / 2 ** 20
  const first = await report()
  const again: Awaited<ReturnType<typeof report>>[] = []
  for (let i = 0; i < 5; i++) again.push(await report())
  const median = (xs: number[]) => percentile(xs, 0.5)
  figures.report_20_widgets = {
    charts: first.pngs, warmUpMs: round(warmUpMs), firstMs: round(first.ms), firstDrawMs: round(first.drawMs), firstPngsMs: round(first.pngMs), firstPdfMs: round(first.pdfMs), firstCpuMs: round(first.cpuMs), p50Ms: round(median(again.map((r) => r.ms))), p50CpuMs: round(median(again.map((r) => r.cpuMs))),
    p50DrawMs: round(median(again.map((r) => r.drawMs))), p50PngsMs: round(median(again.map((r) => r.pngMs))), p50PdfMs: round(median(again.map((r) => r.pdfMs))),
    baselineRssMB: round(baselineMB), peakRssMBFirst: round(first.peakMB), peakRssMBAfter: round(Math.max(...again.map((r) => r.peakMB))), pngsKB: round(first.pngKB), pdfKB: round(first.pdfKB),
  }

  const pdfTimes: { ms: number; cpuMs: number }[] = []
  for (let i = 0; i < 10; i++) pdfTimes.push(await timeGet(admin, `/api/dashboards/${dashboard.id}/export.pdf`, sightline.pid))
  const pdfMs = pdfTimes.map((t) => t.ms)
  figures.pdf_export = {
    firstMs: round(pdfMs[0]), p50Ms: round(median(pdfMs)), maxMs: round(Math.max(...pdfMs)), p50CpuMs: round(median(pdfTimes.map((t) => t.cpuMs))),
  }

  const pngTimes: { ms: number; cpuMs: number }[] = []
  for (let i = 0; i < 55; i++) pngTimes.push(await timeGet(admin, `/api/visualizations/${chartViz}/export.png`, sightline.pid))
  const measured = pngTimes.slice(5)
  figures.chart_png_export = {
    firstMs: round(pngTimes[0].ms), p50Ms: round(median(measured.map((t) => t.ms))), p95Ms: round(percentile(measured.map((t) => t.ms), 0.95)),
    // /proc counts in 10 ms ticks: the mean over 50 requests
    meanCpuMs: round(measured.reduce((n, t) => n + t.cpuMs, 0) / measured.length),
  }
} finally {
  await signals.stop()
  await sightline.stop()
}
console.table(Object.fromEntries(Object.entries(figures).filter(([, v]) => typeof v === 'object')))
console.log(JSON.stringify(figures, null, 2))
fs.writeFileSync(path.join(ROOT, 'bench', 'exports.json'), JSON.stringify(figures, null, 2) + '\n')
