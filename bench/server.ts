/**
 * Start and stop a real Sightline process the way an operator does (`node --import tsx src/main.ts`, embedded PostgreSQL, no
 * DATABASE_URL), and time it. Everything here talks to 127.0.0.1 only and every wait has a deadline.
 */
import { spawn, type ChildProcess } from 'node:child_process'
import { alive } from '../src/db/index.ts'
import crypto from 'node:crypto'
import fs from 'node:fs'
import net from 'node:net'
import os from 'node:os'
import path from 'node:path'
import { performance } from 'node:perf_hooks'
import { groupCpuSeconds } from './cpu.ts'

export const ROOT = path.resolve(import.meta.dirname, '..')
export const HOST = '127.0.0.1'
const POLL_MS = 20
/** src/main.ts forces an exit after 20 s; we give it a little longer before killing it ourselves. */
const EXIT_DEADLINE_MS = 25_000
/** What "exits within a few seconds" means for the pass/fail column. */
export const CLEAN_EXIT_MS = 5_000

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms))

export async function freePort(): Promise<number> {
  return await new Promise((resolve, reject) => {
    const server = net.createServer()
    server.once('error', reject)
    server.listen(0, HOST, () => {
      const { port } = server.address() as net.AddressInfo
      server.close(() => resolve(port))
    })
  })
}

/** A new empty directory under /tmp that the `postgres` OS user can walk into (the server drops to it as root). */
export function tempDir(prefix: string): string {
  const dir = fs.mkdtempSync(path.join('/tmp', prefix))
  fs.chmodSync(dir, 0o755)
  return dir
}

/** Where src/db/embedded.ts puts the cluster for `dataDir` (mirrors its clusterDirFor). */
export function clusterDirFor(dataDir: string): string {
  const inside = path.join(dataDir, 'pg')
  if (fs.existsSync(inside)) return inside
  const id = crypto.createHash('sha256').update(path.resolve(dataDir)).digest('hex').slice(0, 16)
  const outside = path.join(os.tmpdir(), `sightline-pg-${id}`)
  return fs.existsSync(outside) ? outside : inside
}

/** The postmaster pid recorded for the cluster, and whether that process still runs. */
export function postmaster(dataDir: string): { pidFile: boolean; pid: number | undefined; alive: boolean } {
  const file = path.join(clusterDirFor(dataDir), 'postmaster.pid')
  let text: string
  try {
    text = fs.readFileSync(file, 'utf8')
  } catch {
    return { pidFile: false, pid: undefined, alive: false }
  }
  const pid = Number(text.split('\n')[0])
  return { pidFile: true, pid, alive: alive(pid) }
}

export interface StopResult {
  /** From SIGTERM to the process having exited. */
  exitMs: number
  exitCode: number | null
  signal: NodeJS.Signals | null
  /** Exited by itself within CLEAN_EXIT_MS (we did not have to kill it). */
  exitedInTime: boolean
  /** postmaster.pid removed, or the pid in it no longer running. */
  postgresGone: boolean
  postmasterPidFileLeft: boolean
}

export interface RunningSightline {
  port: number
  pid: number
  logFile: string
  /**
   * Wait for the process's "Sightline started" log line (web server and worker up, signal handlers installed).
   * Resolves with the time from spawn to our noticing the line, or undefined after `timeoutMs`.
   */
  started(timeoutMs: number): Promise<number | undefined>
  /** SIGTERM, wait for exit, check the embedded PostgreSQL went with it. Safe to call twice. */
  stop(): Promise<StopResult>
  /** Last lines of the process output, for error messages. */
  logTail(lines?: number): string
}

interface Exit {
  code: number | null
  signal: NodeJS.Signals | null
}

function waitForExit(child: ChildProcess): Promise<Exit> {
  if (child.exitCode !== null || child.signalCode !== null) {
    return Promise.resolve({ code: child.exitCode, signal: child.signalCode })
  }
  return new Promise((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })))
}

/**
 * Spawn `node --import tsx src/main.ts` on `dataDir` and resolve once GET /ping answers 200; `ms` is the wall time from spawn,
 * `cpuS` the CPU time its processes used by then (not counting PostgreSQL, which runs in its own process group).
 * Rejects (after killing what it started) if the process exits or /ping does not answer before `timeoutMs`.
 */
export async function startSightline(o: { dataDir: string; logDir: string; label: string; timeoutMs: number; env?: NodeJS.ProcessEnv; nodeArgs?: string[]
  /** Called as soon as the process is spawned, so a caller interrupted meanwhile can still stop it. */
  onSpawn?: (server: RunningSightline) => void
}):
  Promise<{ server: RunningSightline; ms: number; cpuS: number }> {
  const port = await freePort()
  const logFile = path.join(o.logDir, `${o.label}.log`)
  const out = fs.openSync(logFile, 'a')
  const env: NodeJS.ProcessEnv = {
    ...process.env, ...o.env, NODE_ENV: 'production', PORT: String(port), HOST, SIGHTLINE_DATA_DIR: o.dataDir,
  }
  delete env.DATABASE_URL
  delete env.SIGHTLINE_PROCESS

  const began = performance.now()
  // `node --import tsx src/main.ts` as `npm start` does; with nodeArgs, `node <nodeArgs> --import tsx src/main.ts` (one process,
  // no tsx parent relaying signals). Its own process group, so a fallback kill reaches all of it and nothing else.
  const [command, args] = o.nodeArgs
    ? [process.execPath, [...o.nodeArgs, '--import', 'tsx', 'src/main.ts']]
    : [process.execPath, ['--import', 'tsx', 'src/main.ts']]
  const child = spawn(command, args, { cwd: ROOT, env, stdio: ['ignore', out, out], detached: true })
  fs.closeSync(out)
  const exited = waitForExit(child)
  let exit: Exit | undefined
  void exited.then((e) => (exit = e))

  const logTail = (lines = 30) => {
    try {
      return fs.readFileSync(logFile, 'utf8').trimEnd().split('\n').slice(-lines).join('\n')
    } catch {
      return '(no output)'
    }
  }

  let stopping: Promise<StopResult> | undefined
  const stop = () => (stopping ??= (async (): Promise<StopResult> => {
    const t0 = performance.now()
    if (!exit) child.kill('SIGTERM')
    const inTime = await Promise.race([exited.then(() => true), sleep(CLEAN_EXIT_MS).then(() => false)])
    let result = exit ?? (await Promise.race([exited, sleep(EXIT_DEADLINE_MS - CLEAN_EXIT_MS).then(() => undefined)]))
    if (!result) {
      try {
        process.kill(-child.pid!, 'SIGKILL')
      } catch { /* already gone */ }
      result = await Promise.race([exited, sleep(2_000).then(() => ({ code: null, signal: 'SIGKILL' as const }))])
    }
    const exitMs = performance.now() - t0
    // release() waits for the postmaster to go before the process exits; allow a moment for the pid file anyway.
    let pm = postmaster(o.dataDir)
    for (let i = 0; i < 50 && pm.alive; i++) {
      await sleep(100)
      pm = postmaster(o.dataDir)
    }
    return {
      exitMs, exitCode: result.code, signal: result.signal, exitedInTime: inTime,
      postgresGone: !pm.alive, postmasterPidFileLeft: pm.pidFile,
    }
  })())

  const started = async (timeoutMs: number) => {
    const until = performance.now() + timeoutMs
    while (performance.now() < until && !exit) {
      if (reportedStartMs(logFile) !== undefined) return performance.now() - began
      await sleep(POLL_MS)
    }
    return undefined
  }

  const server: RunningSightline = { port, pid: child.pid!, logFile, started, stop, logTail }
  o.onSpawn?.(server)
  const deadline = began + o.timeoutMs
  while (performance.now() < deadline) {
    if (exit) throw new Error(`${o.label}: Sightline exited (code ${exit.code}, signal ${exit.signal}) before answering /ping:\n${logTail()}`)
    try {
      const res = await fetch(`http://${HOST}:${port}/ping`, { signal: AbortSignal.timeout(1_000) })
      await res.arrayBuffer()
      if (res.status === 200) return { server, ms: performance.now() - began, cpuS: groupCpuSeconds(child.pid!) }
    } catch {
      // not listening yet
    }
    await sleep(POLL_MS)
  }
  await stop()
  throw new Error(`${o.label}: no 200 from /ping within ${o.timeoutMs} ms:\n${logTail()}`)
}

/** The "Sightline started" line's own figure (time inside startSightline, excluding process and module loading). */
export function reportedStartMs(logFile: string): number | undefined {
  try {
    for (const line of fs.readFileSync(logFile, 'utf8').split('\n').reverse()) {
      if (!line.startsWith('{')) continue
      const entry = JSON.parse(line) as { message?: string; ms?: number }
      if (entry.message === 'Sightline started' && typeof entry.ms === 'number') return entry.ms
    }
  } catch { /* no log */ }
  return undefined
}
