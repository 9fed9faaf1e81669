/**
 * Data-source figures: the schema of a source with 1,000 tables and 20,000 columns fetched and cached (< 2 s) and
 * served from the cache (< 50 ms), and how fast a connection test answers when the engine is up, refuses the
 * connection, or accepts it and then says nothing (< 1 s or a reported timeout).
 *
 * Runs against its own embedded PostgreSQL in a temp dir (nothing else needed) and talks only to 127.0.0.1.
 */
import fs from 'node:fs'
import net from 'node:net'
import os from 'node:os'
import path from 'node:path'
import { runMigrations } from 'graphile-worker'
import { createApp } from '../src/app.ts'
import { loadConfig } from '../src/config.ts'
import { useEmbeddedPostgres, migrate, connect } from '../src/db/index.ts'
import { revealApiKey } from '../src/credentials/index.ts'
import { createDeps } from '../src/create-deps.ts'
import { FEATURES } from '../src/features.ts'
import { refreshSchema } from '../src/data-sources/index.ts'
import { loadAssets } from '../src/assets/index.ts'
import { quietLogger } from '../worker/main.ts'

const TABLES = 1000
const COLUMNS_PER_TABLE = 20
const CACHED_FETCHES = 50

const root = fs.mkdtempSync(path.join(os.tmpdir(), 'sightline-bench-ds-'))
fs.chmodSync(root, 0o755)
const pg = await useEmbeddedPostgres(root, 'postgres')
const admin = connect(pg.url, { max: 1 })
const results: Record<string, unknown> = { date: new Date().toISOString() }

try {
  await admin.unsafe('create database app')
  await admin.unsafe('create database wide')
  const url = (db: string) => pg.url.replace(/\/postgres$/, `/${db}`)

  // A wide source: 1,000 tables of 20 columns each.
  const wide = connect(url('wide'), { max: 1 })
  const columns = Array.from({ length: COLUMNS_PER_TABLE }, (_, i) => `c${i} ${['int', 'text', 'numeric', 'timestamptz'][i % 4]}`).join(', ')
  await wide.unsafe(Array.from({ length: TABLES }, (_, t) => `create table t${String(t).padStart(4, '0')} (${columns});`).join('\n'))
  await wide.end()

  // Sightline itself, in process: the same app and refresh code the server and worker run.
  const sql = connect(url('app'))
  await migrate(sql)
  await runMigrations({ connectionString: url('app'), logger: quietLogger })
  const config = { ...loadConfig({}), dataDir: root, databaseUrl: url('app') }
  const deps = createDeps({ sql, config, secretKey: 'bench', assets: loadAssets(path.resolve(import.meta.dirname, '../dist')), features: FEATURES })
  const app = createApp(deps)
  const setup = await app.request('/setup', {
    method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ name: 'Bench', email: 'bench@example.com', password: 'bench-password', org_name: 'Bench' }).toString(),
  })
  const [{ key_sealed: sealed }] = await sql<{ key_sealed: string }[]>`select key_sealed from api_keys where user_id is not null and active limit 1`
  const key = revealApiKey('bench', sealed)!
  const call = (method: string, p: string, body?: unknown) => app.request(p, {
    method, headers: { authorization: `Key ${key}`, 'content-type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body),
  })
  if (setup.status !== 302) throw new Error(`setup failed: ${setup.status}`)
  const u = new URL(url('wide'))
  const options = { host: u.hostname, port: Number(u.port), user: u.username, password: decodeURIComponent(u.password), dbname: 'wide' }
  const ds = await (await call('POST', '/api/data_sources', { name: 'Wide', type: 'pg', options })).json()

  // Refresh: request → job → the worker's refresh (run here directly) → cached.
  let started = performance.now()
  const { job } = await (await call('GET', `/api/data_sources/${ds.id}/schema?refresh=true`)).json()
  await refreshSchema(sql, 'bench', { job_id: job.id, data_source_id: ds.id })
  const refreshMs = performance.now() - started
  const status = (await (await call('GET', `/api/jobs/${job.id}`)).json()).job.status
  if (status !== 3) throw new Error(`schema refresh did not finish: status ${status}`)

  const fetches: number[] = []
  let tables = 0
  let bytes = 0
  for (let i = 0; i < CACHED_FETCHES; i++) {
    started = performance.now()
    const res = await call('GET', `/api/data_sources/${ds.id}/schema`)
    const text = await res.text()
    fetches.push(performance.now() - started)
    bytes = text.length
    if (i === 0) tables = JSON.parse(text).schema.length
  }
  fetches.sort((a, b) => a - b)
  results.schema = {
    tables, columns: TABLES * COLUMNS_PER_TABLE, bytes, refreshMs: Math.round(refreshMs),
    cachedP50Ms: +fetches[Math.floor(fetches.length / 2)].toFixed(2), cachedMaxMs: +fetches.at(-1)!.toFixed(2),
  }

  // Connection tests: a live engine, a refused port, and a server that accepts and never answers.
  const silent = net.createServer(() => {}).listen(0, '127.0.0.1')
  await new Promise((r) => silent.once('listening', r))
  const silentPort = (silent.address() as net.AddressInfo).port
  const refusedPort = await new Promise<number>((resolve) => {
    const s = net.createServer().listen(0, '127.0.0.1', () => {
      const port = (s.address() as net.AddressInfo).port
      s.close(() => resolve(port))
    })
  })
  const connectionTests: Record<string, { ms: number; ok: boolean; message: string }> = {}
  for (const [label, port] of [['live', Number(u.port)], ['refused', refusedPort], ['silent', silentPort]] as const) {
    const created = await (await call('POST', '/api/data_sources', { name: `Test ${label}`, type: 'pg', options: { ...options, port } })).json()
    started = performance.now()
    const result = await (await call('POST', `/api/data_sources/${created.id}/test`)).json()
    connectionTests[label] = { ms: Math.round(performance.now() - started), ok: result.ok, message: result.message }
  }
  silent.close()
  results.connectionTests = connectionTests

  await deps.bus.stop()
  await sql.end()
} finally {
  await admin.end()
  await pg.release()
  fs.rmSync(root, { recursive: true, force: true })
}

const s = results.schema as Record<string, number>
const ct = results.connectionTests as Record<string, { ms: number; ok: boolean; message: string }>
const row = (a: string, b: string, c: string, result: string) => `| ${a.padEnd(52)} | ${b.padEnd(12)} | ${c.padEnd(10)} | ${result.padEnd(6)} |`
const verdict = (ok: boolean) => (ok ? 'ok' : 'MISS')
console.log('\nData sources\n')
console.log(row('Measure', 'Value', 'Target', 'Result'))
console.log(`|${'-'.repeat(54)}|${'-'.repeat(14)}|${'-'.repeat(12)}|${'-'.repeat(8)}|`)
console.log(row(`Schema refresh, ${s.tables} tables / ${s.columns} columns`, `${s.refreshMs} ms`, '< 2000 ms', verdict(s.refreshMs < 2000)))
console.log(row(`Schema from cache (p50 of ${CACHED_FETCHES}, ${Math.round(s.bytes / 1024)} KB JSON)`, `${s.cachedP50Ms} ms`, '< 50 ms', verdict(s.cachedP50Ms < 50)))
for (const [label, r] of Object.entries(ct)) {
  const fine = r.ms < 1000 || /timed out|timeout/i.test(r.message)
  console.log(row(`Connection test, ${label} (${r.ok ? 'ok' : 'failed'})`, `${r.ms} ms`, '< 1 s or timeout', verdict(fine)))
}
for (const [label, r] of Object.entries(ct)) if (!r.ok) console.log(`  ${label}: ${r.message}`)
fs.writeFileSync(path.join(import.meta.dirname, 'data-sources-results.json'), JSON.stringify(results, null, 2))
