import fs from 'node:fs'
import path from 'node:path'
import { freePort } from '../../src/db/index.ts'
import { binary, startEngine, tempDir, waitReady, type EngineProcess } from './engine-process.ts'

/**
 * A real InfluxDB 1.x for a test file: Debian's `influxd` with a temporary configuration (meta, data and WAL in a
 * temporary directory, the HTTP API and the RPC service on free ports of 127.0.0.1, reporting off), authentication on
 * and one admin user.
 */
export interface InfluxServer extends EngineProcess {
  /** The HTTP API's address, http://127.0.0.1:port. */
  url: string
  admin: { user: string; password: string }
  /** Runs InfluxQL as the admin (POST /query); the parsed answer. */
  query(q: string, db?: string): Promise<{ results: { error?: string; series?: { name: string; columns: string[]; values: unknown[][] }[] }[] }>
  /** Creates `db` and resolves once InfluxDB lists it, so a write right after finds it. */
  createDatabase(db: string): Promise<void>
  /** Writes line protocol into `db`. */
  write(db: string, lines: string): Promise<void>
}

export async function influxServer(): Promise<InfluxServer> {
  const bin = binary(['/usr/bin/influxd'], 'influxdb')
  const dir = tempDir('influxdb')
  const [http, rpc] = [await freePort(), await freePort()]
  fs.writeFileSync(path.join(dir, 'influxdb.conf'), `
reporting-disabled = true
bind-address = "127.0.0.1:${rpc}"

[meta]
  dir = "${dir}/meta"
  logging-enabled = false

[data]
  dir = "${dir}/data"
  wal-dir = "${dir}/wal"
  query-log-enabled = false

[coordinator]
  log-queries-after = "0s"

[http]
  enabled = true
  bind-address = "127.0.0.1:${http}"
  auth-enabled = true
  log-enabled = false

[monitor]
  store-enabled = false

[continuous_queries]
  enabled = false

[subscriber]
  enabled = false
`)
  const engine = startEngine(bin, ['-config', path.join(dir, 'influxdb.conf')], dir)
  const url = `http://127.0.0.1:${http}`
  const admin = { user: 'admin', password: 'adm1n-s3cret' }
  const authorization = 'Basic ' + Buffer.from(`${admin.user}:${admin.password}`).toString('base64')
  const query: InfluxServer['query'] = async (q, db) => {
    const res = await fetch(`${url}/query`, {
      method: 'POST', headers: { authorization }, body: new URLSearchParams({ q, ...(db && { db }) }), signal: AbortSignal.timeout(30_000),
    })
    return res.json() as never
  }
  try {
    await waitReady(engine, 'influxd', async () => (await fetch(`${url}/ping`, { signal: AbortSignal.timeout(1_000) })).status === 204)
    // with authentication on and no user yet, the first admin may be created without credentials
    const created = await fetch(`${url}/query`, {
      method: 'POST', body: new URLSearchParams({ q: `CREATE USER ${admin.user} WITH PASSWORD '${admin.password}' WITH ALL PRIVILEGES` }),
    })
    if (!created.ok) throw new Error(`influxd refused the admin user: ${await created.text()}`)
  } catch (e) {
    await engine.stop()
    throw e
  }
  const createDatabase: InfluxServer['createDatabase'] = async (db) => {
    let answer: unknown
    // CREATE DATABASE is idempotent: asked again until SHOW DATABASES lists it, and its last answer said if not
    await waitReady(engine, `influxd database ${db}`, async () => {
      answer = await query(`CREATE DATABASE "${db}"`)
      const shown = await query('SHOW DATABASES')
      return (shown.results[0]?.series?.[0]?.values ?? []).some((v) => v[0] === db)
    }, 30_000).catch((e) => { throw new Error(`${(e as Error).message}\nlast answer: ${JSON.stringify(answer)}`) })
  }
  return {
    ...engine, url, admin, query, createDatabase,
    write: async (db, lines) => {
      const res = await fetch(`${url}/write?db=${encodeURIComponent(db)}`, { method: 'POST', headers: { authorization }, body: lines })
      if (res.status !== 204) throw new Error(`influxd refused the write: ${await res.text()}`)
    },
  }
}
