/**
 * Alerts, with one real Sightline process (web and worker) on its own embedded PostgreSQL, which is also the engine
 * the watched query runs on, and webhook receivers on 127.0.0.1:
 *   - latency: a result that triggers an alert reaches the webhook within 1 s p95 of the result being stored
 *     (`query_results.retrieved_at`, the database's clock on this machine, to the request's arrival), 20 crossings;
 *   - fan-out: 1,000 alerts on one query, each subscribed to a webhook: one refresh crossing all thresholds has every
 *     alert evaluated in under 2 s (latest `alerts.checked_at`) and the 1,000 deliveries answered within 10 s.
 * `NODE_ENV=production npx tsx bench/alerts.ts`; prints the figures and writes bench/alerts.json.
 */
import fs from 'node:fs'
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import path from 'node:path'
import { sleep } from './server.ts'
import { machine, percentile, pgSourceOptions, round, startBenchSightline, type HttpSession } from './sightline.ts'

const CROSSINGS = 20
const FAN_OUT = 1000
const figures: Record<string, unknown> = machine()

/** A webhook receiver noting when each notification arrived, by alert and state. */
async function receiver() {
  const arrivals: { alert: number; state: string; at: number }[] = []
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = []
    req.on('data', (c: Buffer) => chunks.push(c))
    req.on('end', () => {
      const at = Date.now()
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8'))
      arrivals.push({ alert: body.alert.id, state: body.alert.state, at })
      res.writeHead(200).end('ok')
    })
  })
  server.keepAliveTimeout = 60_000
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return { arrivals, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`, close: () => new Promise((r) => server.close(r)) }
}

/** Run a saved query now and wait for its result; its id. */
async function runToResult(admin: HttpSession, queryId: number): Promise<number> {
  const started = await admin.api<{ job?: { id: string }; query_result?: { id: number } }>('POST', `/api/queries/${queryId}/results`, { max_age: 0 })
  if (started.query_result) return started.query_result.id
  for (let i = 0; i < 600; i++) {
    const { job } = await admin.api<{ job: { status: number; error: string; query_result_id: number } }>('GET', `/api/jobs/${started.job!.id}`)
    if (job.status === 3) return job.query_result_id
    if (job.status === 4) throw new Error(job.error)
    await sleep(20)
  }
  throw new Error('the query did not finish in a minute')
}

async function until<T>(read: () => Promise<T> | T, ok: (v: T) => boolean, what: string, ms = 60_000): Promise<T> {
  const deadline = Date.now() + ms
  for (;;) {
    const v = await read()
    if (ok(v)) return v
    if (Date.now() > deadline) throw new Error(`${what}: not within ${ms} ms`)
    await sleep(10)
  }
}

const sightline = await startBenchSightline('alerts')
const { admin, sql } = sightline
const api = admin.api.bind(admin)
const receivers: Awaited<ReturnType<typeof receiver>>[] = []
try {
  await sql`create table bench_value (k text primary key, n int)`
  await sql`insert into bench_value values ('one', 0), ('many', 0)`
  const ds = await api<{ id: number }>('POST', '/api/data_sources', { name: 'Engine', type: 'pg', options: pgSourceOptions(sightline.databaseUrl) })
  const retrievedAt = async (resultId: number) => (await sql<{ ms: number }[]>`
    select extract(epoch from retrieved_at) * 1000 as ms from query_results where id = ${resultId}`)[0].ms

  // latency: one alert, one webhook, 20 crossings (each followed by a return to normal, not measured)
  const one = await receiver()
  receivers.push(one)
  const q1 = await api<{ id: number }>('POST', '/api/queries', { name: 'One value', data_source_id: ds.id, query: "select n from bench_value where k = 'one'" })
  const alert = await api<{ id: number }>('POST', '/api/alerts', { name: 'Above 10', query_id: q1.id, options: { column: 'n', op: '>', value: 10 } })
  const hook = await api<{ id: number }>('POST', '/api/destinations', { name: 'Bench hook', type: 'webhook', options: { url: one.url } })
  await api('POST', `/api/alerts/${alert.id}/subscriptions`, { destination_id: hook.id })
  await runToResult(admin, q1.id)
  const latencies: number[] = []
  for (let i = 0; i < CROSSINGS; i++) {
    for (const [n, state] of [[99, 'triggered'], [0, 'ok']] as const) {
      await sql`update bench_value set n = ${n} where k = 'one'`
      const seen = one.arrivals.length
      const resultId = await runToResult(admin, q1.id)
      const arrival = await until(() => one.arrivals.slice(seen).find((a) => a.state === state), Boolean, `the ${state} notification`)
      if (state === 'triggered') latencies.push(arrival!.at - (await retrievedAt(resultId)))
    }
  }
  figures.result_to_webhook = { crossings: CROSSINGS, p50Ms: round(percentile(latencies, 0.5)), p95Ms: round(percentile(latencies, 0.95)), maxMs: round(Math.max(...latencies)) }

  // fan-out: 1,000 alerts on one query, seeded in the database (the API would take minutes), one webhook each
  const many = await receiver()
  receivers.push(many)
  const q2 = await api<{ id: number }>('POST', '/api/queries', { name: 'Many alerts', data_source_id: ds.id, query: "select n from bench_value where k = 'many'" })
  const hook2 = await api<{ id: number }>('POST', '/api/destinations', { name: 'Fan-out hook', type: 'webhook', options: { url: many.url } })
  await runToResult(admin, q2.id) // the alerts start unknown → ok, telling nobody
  const [owner] = await sql<{ id: number; org_id: number }[]>`select id, org_id from users order by id limit 1`
  const ids = await sql<{ id: number }[]>`
    insert into alerts (org_id, user_id, query_id, name, options, state)
    select ${owner.org_id}, ${owner.id}, ${q2.id}, 'Fan-out ' || g, '{"column": "n", "op": ">", "value": 10, "selector": "first", "muted": false}', 'ok'
      from generate_series(1, ${FAN_OUT}) g returning id`
  await sql`insert into alert_subscriptions (alert_id, user_id, destination_id) select id, ${owner.id}, ${hook2.id} from alerts where query_id = ${q2.id}`
  await sql`update bench_value set n = 99 where k = 'many'`
  const resultId = await runToResult(admin, q2.id)
  const stored = await retrievedAt(resultId)
  await until(async () => (await sql<{ n: number }[]>`select count(*)::int as n from alerts where query_id = ${q2.id} and checked_result_id = ${resultId}`)[0].n,
    (n) => n === ids.length, 'every alert evaluated')
  const [checked] = await sql<{ ms: number; triggered: number }[]>`
    select extract(epoch from max(checked_at)) * 1000 as ms, count(*) filter (where state = 'triggered')::int as triggered
      from alerts where query_id = ${q2.id}`
  await until(() => many.arrivals.length, (n) => n >= FAN_OUT, `${FAN_OUT} deliveries`, 120_000)
  const [sent] = await sql<{ n: number }[]>`select count(*)::int as n from alert_deliveries d join alerts a on a.id = d.alert_id where a.query_id = ${q2.id} and d.status = 'sent'`
  figures.fan_out = {
    alerts: FAN_OUT, triggered: checked.triggered, evaluatedMs: round(checked.ms - stored),
    deliveriesDoneMs: round(Math.max(...many.arrivals.map((a) => a.at)) - stored), received: many.arrivals.length,
    distinctAlertsReceived: new Set(many.arrivals.map((a) => a.alert)).size, sentRows: sent.n,
  }
  console.log(JSON.stringify(figures, null, 2))
  fs.writeFileSync(path.join(import.meta.dirname, 'alerts.json'), JSON.stringify(figures, null, 2) + '\n')
} finally {
  await Promise.all(receivers.map((r) => r.close()))
  await sightline.stop()
}
