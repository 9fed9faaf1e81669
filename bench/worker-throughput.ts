/**
 * Worker throughput alone: 1,000 trivial executions queued straight in the database, then one worker process
 * started; how long until all are done. Separates the worker's cost per job from the web side's.
 * `npx tsx bench/worker-throughput.ts [concurrency]`
 */
import { spawn } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { runMigrations } from 'graphile-worker'
import { useEmbeddedPostgres, migrate, connect } from '../src/db/index.ts'
import { setupOrganization } from '../src/orgs/index.ts'
import { dataSourceTypes } from '../src/runners/index.ts'
import { quietLogger } from '../worker/main.ts'
import { ROOT, sleep } from './server.ts'

const concurrency = process.argv[2] ?? '4'
const root = fs.mkdtempSync(path.join(os.tmpdir(), 'sightline-bench-worker-'))
fs.chmodSync(root, 0o755)
const pg = await useEmbeddedPostgres(root, 'postgres')
const sql = connect(pg.url, { max: 2 })
try {
  await migrate(sql)
  await runMigrations({ connectionString: pg.url, logger: quietLogger })
  const { orgId } = await setupOrganization(sql, 'bench', { org_name: 'Bench', name: 'Bench', email: 'b@example.com', password: 'bench password 1' })
  const u = new URL(pg.url)
  const [ds] = await sql`insert into data_sources (org_id, name, type, options)
    values (${orgId}, 'Engine', 'pg', ${sql.json({ host: u.hostname, port: Number(u.port), user: decodeURIComponent(u.username), dbname: 'postgres' })}) returning id`
  await sql`update data_sources set secrets = ${dataSourceTypes.seal('bench', { password: decodeURIComponent(u.password) })} where id = ${ds.id}`
  await sql`
    insert into executions (org_id, data_source_id, query_hash, query_text, queue)
    select ${orgId}, ${ds.id}, md5(g::text), 'SELECT ' || g || ' AS n', 'ds:' || ${ds.id} from generate_series(1, 1000) g`
  await sql`select sightline_dispatch_executions(${ds.id})`
  const began = performance.now()
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
    cwd: ROOT, stdio: ['ignore', 'ignore', 'inherit'],
    env: { ...process.env, NODE_OPTIONS: process.env.PROFILE ? '--cpu-prof --cpu-prof-dir=/work/prof' : '', NODE_ENV: 'production', SIGHTLINE_LOG_LEVEL: 'warn', DATABASE_URL: pg.url, SIGHTLINE_PROCESS: 'worker', SIGHTLINE_DATA_DIR: root, SIGHTLINE_SECRET_KEY: 'bench', SIGHTLINE_WORKER_CONCURRENCY: concurrency },
  })
  let done = 0
  while (done < 1000) {
    await sleep(100)
    done = (await sql`select count(*)::int as n from executions where status >= 3`)[0].n
  }
  const [stats] = await sql`select count(*) filter (where status = 4)::int as failed,
      extract(epoch from max(finished_at) - min(started_at)) * 1000 as span,
      percentile_cont(0.5) within group (order by extract(epoch from finished_at - started_at)) * 1000 as run_p50
    from executions`
  console.log({ concurrency, wallMs: Math.round(performance.now() - began), firstStartToLastDoneMs: Math.round(stats.span), runP50Ms: +stats.run_p50.toFixed(1), failed: stats.failed })
  child.kill('SIGTERM')
  await new Promise((r) => child.once('exit', r))
} finally {
  await sql.end()
  await pg.release()
  fs.rmSync(root, { recursive: true, force: true })
}
