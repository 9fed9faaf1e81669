/**
 * The run-and-store stage alone, in this process, for a CPU profile: the PostgreSQL runner's COPY of a million rows
 * (the same SELECT as bench/million-rows.ts) through the result writer into chunks, on an embedded database. Prints
 * this process's CPU seconds (user + system, thread pool included) per round.
 * `NODE_ENV=production node --cpu-prof --cpu-prof-dir=/tmp/prof --import tsx bench/store-profile.ts`; BENCH_ROUNDS (default 3).
 */
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { connect, migrate, useEmbeddedPostgres } from '../src/db/index.ts'
import { readFirstChunk, storeRest } from '../src/results/index.ts'
import { closeWarmPostgresConnections, postgresRunner } from '../src/runners/index.ts'
import { pgSourceOptions } from './sightline.ts'

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3)
const ROWS = 1_000_000
const SELECT = `SELECT g AS id, g * 2 AS twice, md5(g::text) AS hash, timestamp '2024-01-01' + g * interval '1 second' AS at FROM generate_series(1, ${ROWS}) g`
const LIMITS = { maxRows: 2_000_000, maxBytes: 1024 ** 3, maxCellBytes: 1024 * 1024 }

const root = fs.mkdtempSync(path.join(os.tmpdir(), 'sightline-store-profile-'))
const pg = await useEmbeddedPostgres(root, 'postgres')
const sql = connect(pg.url, { max: 2 })
try {
  await migrate(sql)
  // no organization or source rows (session_replication_role below): foreign keys are not what is measured
  const config = pgSourceOptions(pg.url)
  const cpu = () => { const u = process.cpuUsage(); return (u.user + u.system) / 1e6 }
  for (let r = 0; r < ROUNDS; r++) {
    const began = cpu()
    const wall = performance.now()
    const stream = await postgresRunner.run(config, SELECT, { signal: new AbortController().signal, maxCellBytes: LIMITS.maxCellBytes } as never)
    const first = await readFirstChunk(stream, LIMITS)
    const header = { orgId: 1, dataSourceId: 1, queryHash: 'x', queryText: SELECT, columns: [...stream.columns], log: [] }
    const stored = await sql.begin(async (tx) => {
      await tx`set local session_replication_role = replica`
      return storeRest(tx as never, header, first, { startedAt: wall, log: [] })
    })
    console.log(`round ${r + 1}: ${stored.rowCount} rows, CPU ${(cpu() - began).toFixed(2)} s, wall ${((performance.now() - wall) / 1000).toFixed(1)} s (busy machine, load ${os.loadavg()[0].toFixed(1)})`)
    await sql`delete from query_results`
  }
} finally {
  await closeWarmPostgresConnections()
  await sql.end()
  await pg.release()
  fs.rmSync(root, { recursive: true, force: true })
}
