import { execFileSync, spawn } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { alive, freePort, connect } from '../../src/db/index.ts'
import { eventually } from './wait.ts'

/**
 * A throwaway PostgreSQL 15 (the oldest version its developers still maintain, and so the oldest Sightline supports),
 * from the system's binaries: Debian's `postgresql-15`, which scripts/test-engines.sh installs when missing. Its own
 * cluster in a temp dir, on a free port, trusting local connections; run as the `postgres` user when we are root.
 */
export const POSTGRES_15_BIN = process.env.SIGHTLINE_TEST_PG15_BIN ?? '/usr/lib/postgresql/15/bin'

export interface Postgres15 {
  /** Admin URL of the `postgres` database. */
  url: string
  /** The URL of a new, empty database on it. */
  createDatabase(name: string): Promise<string>
  stop(): Promise<void>
}

const isRoot = () => process.getuid?.() === 0
const postgresIds = () => isRoot()
  ? { uid: Number(execFileSync('id', ['-u', 'postgres'], { encoding: 'utf8' })), gid: Number(execFileSync('id', ['-g', 'postgres'], { encoding: 'utf8' })) }
  : {}

export async function startPostgres15(): Promise<Postgres15> {
  const initdb = path.join(POSTGRES_15_BIN, 'initdb')
  if (!fs.existsSync(initdb)) {
    throw new Error(`No PostgreSQL 15 at ${POSTGRES_15_BIN}: install Debian's postgresql-15 (bash scripts/test-engines.sh does) or set SIGHTLINE_TEST_PG15_BIN.`)
  }
  const ids = postgresIds()
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sightline-pg15-'))
  fs.chmodSync(dir, 0o755)
  const cluster = path.join(dir, 'data')
  fs.mkdirSync(cluster, { mode: 0o700 })
  if (ids.uid !== undefined) fs.chownSync(cluster, ids.uid, ids.gid!)
  const env = { ...process.env, LC_ALL: 'C' }
  execFileSync(initdb, [`--pgdata=${cluster}`, '--auth=trust', '--username=postgres', '--encoding=UTF8', '--locale=C'], { ...ids, env, stdio: 'pipe' })
  const port = await freePort()
  const logFile = path.join(dir, 'postgres.log')
  const out = fs.openSync(logFile, 'a')
  if (ids.uid !== undefined) fs.fchownSync(out, ids.uid, ids.gid!)
  const server = spawn(path.join(POSTGRES_15_BIN, 'postgres'),
    ['-D', cluster, '-p', String(port), '-c', 'listen_addresses=127.0.0.1', '-c', 'unix_socket_directories=', '-c', 'fsync=off'],
    { ...ids, env, stdio: ['ignore', out, out] })
  fs.closeSync(out)
  const url = `postgres://postgres@127.0.0.1:${port}/postgres`
  const admin = connect(url, { max: 1 })
  try {
    await eventually(async () => {
      if (server.exitCode !== null) throw new Error(`PostgreSQL 15 did not start:\n${fs.readFileSync(logFile, 'utf8')}`)
      return await admin`select 1 as up`.then(() => true, () => false)
    }, (up) => up, 'PostgreSQL 15 to accept connections')
  } catch (error) {
    server.kill('SIGKILL')
    await admin.end({ timeout: 1 })
    throw error
  }
  return {
    url,
    async createDatabase(name) {
      await admin.unsafe(`create database ${name}`)
      const u = new URL(url)
      u.pathname = `/${name}`
      return u.toString()
    },
    async stop() {
      await admin.end({ timeout: 1 })
      const exited = new Promise((resolve) => (server.exitCode !== null ? resolve(null) : server.once('exit', resolve)))
      server.kill('SIGINT') // fast shutdown
      await exited
      if (server.pid && alive(server.pid)) server.kill('SIGKILL')
      fs.rmSync(dir, { recursive: true, force: true })
    },
  }
}
