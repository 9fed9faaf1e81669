/**
 * Reports: 100 subscriptions due at the same minute, with two workers (the Sightline process's own and a second worker
 * process on the same database), all delivered to a local SMTP server within 60 s of their due time, each exactly
 * once. Each subscription mails a two-widget dashboard (a chart as an inline picture, a table) to the admin; a mail is
 * told apart by the subscription id in its List-Unsubscribe address. After the last arrival the bench waits for every
 * report job to end, so a late duplicate would be counted.
 * `NODE_ENV=production npx tsx bench/reports.ts`; prints the figures and writes bench/reports.json.
 */
import { spawn, type ChildProcess } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { SMTPServer } from 'smtp-server'
import { sleep } from './server.ts'
import { machine, pgSourceOptions, round, startBenchSightline } from './sightline.ts'

const SUBSCRIPTIONS = 100
const SECRET = 'bench-reports-secret'
const figures: Record<string, unknown> = machine()

/** An SMTP server on 127.0.0.1 noting, per subscription, when each mail arrived. */
async function smtpServer() {
  const arrivals = new Map<number, number[]>()
  const server = new SMTPServer({
    authOptional: true, disabledCommands: ['STARTTLS'], logger: false,
    onData(stream, _session, callback) {
      const chunks: Buffer[] = []
      stream.on('data', (c: Buffer) => chunks.push(c))
      stream.on('end', () => {
        // headers unfolded (a long address may be folded anywhere)
        const raw = Buffer.concat(chunks).toString('utf8').replace(/=\r?\n/g, '').replace(/\r?\n[ \t]+/g, '')
        if (arrivals.size === 0) fs.writeFileSync(path.join(os.tmpdir(), 'sightline-bench-report-mail.eml'), raw)
        const id = Number(/\/unsubscribe\/(\d+)\.u/.exec(raw)?.[1] ?? 0)
        arrivals.set(id, [...(arrivals.get(id) ?? []), Date.now()])
        callback()
      })
    },
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return { arrivals, port: (server.server.address() as { port: number }).port, close: () => new Promise<void>((r) => server.close(() => r())) }
}

const smtp = await smtpServer()
const mailEnv = { SIGHTLINE_MAIL_SERVER: '127.0.0.1', SIGHTLINE_MAIL_PORT: String(smtp.port), SIGHTLINE_MAIL_DEFAULT_SENDER: 'bench@example.com', SIGHTLINE_SECRET_KEY: SECRET }
const sightline = await startBenchSightline('reports', mailEnv)
const { admin, sql } = sightline
const api = admin.api.bind(admin)
let second: ChildProcess | undefined
const secondDir = fs.mkdtempSync(path.join(os.tmpdir(), 'sightline-bench-reports-worker-'))
try {
  second = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
    cwd: path.resolve(import.meta.dirname, '..'), stdio: ['ignore', 'ignore', 'inherit'],
    env: { ...process.env, ...mailEnv, NODE_ENV: 'production', SIGHTLINE_LOG_LEVEL: 'warn', DATABASE_URL: sightline.databaseUrl, SIGHTLINE_PROCESS: 'worker', SIGHTLINE_DATA_DIR: secondDir, SIGHTLINE_BASE_URL: sightline.base },
  })
  const ds = await api<{ id: number }>('POST', '/api/data_sources', { name: 'Engine', type: 'pg', options: pgSourceOptions(sightline.databaseUrl) })
  const q = await api<{ id: number; visualizations: { id: number }[] }>('POST', '/api/queries', {
    name: 'Regions', data_source_id: ds.id, query: "select r as region, n as orders from (values ('North', 120), ('South', 80), ('East', 95)) v(r, n)",
  })
  const run = await api<{ job?: { id: string } }>('POST', `/api/queries/${q.id}/results`, { max_age: 0 })
  for (let i = 0; run.job && i < 600; i++) {
    const { job } = await api<{ job: { status: number } }>('GET', `/api/jobs/${run.job.id}`)
    if (job.status >= 3) break
    await sleep(50)
  }
  const chart = await api<{ id: number }>('POST', '/api/visualizations', {
    query_id: q.id, type: 'CHART', name: 'Orders', options: { globalSeriesType: 'column', columnMapping: { region: 'x', orders: 'y' } },
  })
  const board = await api<{ id: number }>('POST', '/api/dashboards', { name: 'Regional orders' })
  await api('POST', '/api/widgets', { dashboard_id: board.id, visualization_id: chart.id, options: { position: { col: 0, row: 0, sizeX: 3, sizeY: 8 } } })
  await api('POST', '/api/widgets', { dashboard_id: board.id, visualization_id: q.visualizations[0].id, options: { position: { col: 3, row: 0, sizeX: 3, sizeY: 8 } } })
  const ids: number[] = []
  for (let i = 0; i < SUBSCRIPTIONS; i++) {
    ids.push((await api<{ id: number }>('POST', '/api/subscriptions', { dashboard_id: board.id, schedule: { interval: 3600 }, attachments: ['png'] })).id)
  }
  // all due at the start of the next minute (at least 5 s away, so both workers are up and the cron's tick comes after)
  const [{ due }] = await sql<{ due: Date }[]>`select date_trunc('minute', now() + interval '65 seconds') as due`
  await sql`update report_subscriptions set next_send_at = ${due} where id = any(${ids})`
  const dueMs = due.getTime()
  const deadline = dueMs + 120_000
  while (ids.some((id) => !smtp.arrivals.has(id)) && Date.now() < deadline) await sleep(100)
  // every report job has ended (retries included) before counting
  for (let i = 0; i < 600; i++) {
    const [{ n }] = await sql<{ n: number }[]>`select count(*)::int as n from graphile_worker.jobs where task_identifier in ('plan_reports', 'send_report', 'deliver_report')`
    if (n === 0) break
    await sleep(100)
  }
  const last = Math.max(...ids.map((id) => Math.max(...(smtp.arrivals.get(id) ?? [Infinity]))))
  const first = Math.min(...ids.map((id) => Math.min(...(smtp.arrivals.get(id) ?? [Infinity]))))
  const counts = ids.map((id) => smtp.arrivals.get(id)?.length ?? 0)
  const sends = await sql`select status, count(*)::int as n, max(error) as error from report_sends group by status`
  const deliveries = await sql`select status, count(*)::int as n, max(last_error) as error from report_deliveries group by status`
  const [{ lastSent }] = await sql<{ lastSent: Date }[]>`select max(sent_at) as "lastSent" from report_deliveries`
  Object.assign(figures, {
    sends, deliveries, lastMarkedSentAfterDueSeconds: round((lastSent.getTime() - dueMs) / 1000),
    subscriptions: SUBSCRIPTIONS,
    delivered: counts.filter((n) => n >= 1).length,
    exactlyOnce: counts.every((n) => n === 1),
    duplicates: counts.filter((n) => n > 1).length,
    firstArrivalAfterDueSeconds: round((first - dueMs) / 1000),
    allDeliveredAfterDueSeconds: round((last - dueMs) / 1000),
    withinTarget: last - dueMs <= 60_000 && counts.every((n) => n === 1),
  })
} finally {
  if (second && second.exitCode === null) {
    second.kill('SIGTERM')
    await new Promise((resolve) => second!.once('exit', resolve))
  }
  fs.rmSync(secondDir, { recursive: true, force: true })
  await sightline.stop()
  await smtp.close()
}
console.log(JSON.stringify(figures, null, 2))
fs.writeFileSync(path.join(import.meta.dirname, 'reports.json'), JSON.stringify(figures, null, 2) + '\n')
