/**
 * `npm run bench`: start-up time, GET /api/session latency under load, and the JavaScript a page loads, measured
 * against a real Sightline process on this machine. Prints a table and writes bench/results.json.
 * See bench/README.md for what each figure means.
 */
import { execFileSync } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { performance } from 'node:perf_hooks'
import { loadTest, setUpAndSignIn, type LoadResult } from './load.ts'
import { formatProfile, summariseProfile, type ProfileSummary } from './profile.ts'
import { builtScriptsNotLoaded, pageScripts, type PageScripts } from './scripts.ts'
import { CLEAN_EXIT_MS, ROOT, postmaster, reportedStartMs, sleep, startSightline, tempDir, type RunningSightline, type StopResult } from './server.ts'

const TARGETS = { firstStartMs: 20_000, warmStartMs: 3_000, sessionP50Ms: 5, homeJsGzipKB: 80 }
const WARM_STARTS = 3
const LOAD = { path: '/api/session', connections: 50, durationS: 10, warmupS: 2 }
const RESULTS_FILE = path.join(import.meta.dirname, 'results.json')
const PROFILES_DIR = path.join(import.meta.dirname, 'profiles')
/** `npm run bench -- --profile`: afterwards, repeat the load test on a server running under `--cpu-prof`. */
const PROFILE = process.argv.includes('--profile')

interface StartRun {
  label: string
  /** Spawn to first 200 on /ping, as measured here. */
  ms: number
  /** CPU seconds Sightline's own processes (tsx, node; not PostgreSQL) used by then: steadier on a busy machine. */
  cpuS: number
  /** Spawn to the "Sightline started" log line (worker up too), when we waited for it. */
  startedMs: number | undefined
  /** The server's own "Sightline started" figure: database, migrations, listen, worker (no process or module loading). */
  serverReportedMs: number | undefined
  /** When SIGTERM was sent: straight after the first /ping 200, or once the process logged "Sightline started". */
  sigtermAfter: 'first /ping 200' | 'Sightline started'
  stop?: StopResult
  /** A postmaster still ran after this run's shutdown and the benchmark had to stop it. */
  leftoverPostmasterStopped?: boolean
}

const loadAverageAtStart = os.loadavg()
const dataDir = tempDir('sightline-bench-data-')
const logDir = tempDir('sightline-bench-logs-')
let current: RunningSightline | undefined

async function stopCurrent(): Promise<StopResult | undefined> {
  const server = current
  current = undefined
  return server ? await server.stop() : undefined
}

/** Stop what we started and remove our temp dirs; a postmaster left running by a failed shutdown is stopped too. */
async function cleanUp() {
  await stopCurrent().catch(() => undefined)
  await stopLeftoverPostmaster().catch((error) => console.error(String(error)))
  for (const dir of [dataDir, logDir]) fs.rmSync(dir, { recursive: true, force: true })
}

let interrupted = false
// `on`, not `once`: the tsx CLI may deliver the signal a second time, and with no listener left the process would
// exit on the spot, halfway through cleaning up.
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    if (interrupted) return
    interrupted = true
    console.error(`\n${signal}: stopping Sightline and cleaning up`)
    void cleanUp().finally(() => process.exit(130))
  })
}

/** Stop a postmaster that a failed shutdown left behind, so the next start really starts PostgreSQL. */
async function stopLeftoverPostmaster(): Promise<boolean> {
  const pm = postmaster(dataDir)
  if (!pm.alive || !pm.pid) return false
  try {
    process.kill(pm.pid, 'SIGINT')
  } catch { /* gone */ }
  for (let i = 0; i < 100 && postmaster(dataDir).alive; i++) await sleep(100)
  if (postmaster(dataDir).alive) throw new Error(`PostgreSQL (pid ${pm.pid}) left by a previous run would not stop`)
  return true
}

async function start(label: string, timeoutMs: number, sigtermAfter: StartRun['sigtermAfter']): Promise<StartRun> {
  if (interrupted) throw new Error('interrupted') // start nothing new while cleaning up
  process.stdout.write(`  ${label} ... `)
  const { server, ms, cpuS } = await startSightline({ dataDir, logDir, label, timeoutMs, onSpawn: (s) => (current = s) })
  const startedMs = sigtermAfter === 'Sightline started' ? await server.started(30_000) : undefined
  if (sigtermAfter === 'Sightline started' && startedMs === undefined) {
    throw new Error(`${label}: no "Sightline started" log line within 30 s of /ping answering:\n${server.logTail()}`)
  }
  console.log(`${(ms / 1000).toFixed(2)} s to /ping 200` + (startedMs ? `, ${(startedMs / 1000).toFixed(2)} s to "Sightline started"` : ''))
  return { label, ms, cpuS, startedMs, serverReportedMs: reportedStartMs(server.logFile), sigtermAfter }
}

async function stopRun(run: StartRun) {
  run.stop = await stopCurrent()
  // the "Sightline started" figure, when the process got that far before SIGTERM
  run.serverReportedMs ??= reportedStartMs(path.join(logDir, `${run.label}.log`))
  run.leftoverPostmasterStopped = await stopLeftoverPostmaster()
}

/** The commit measured, and whether the working tree differed from it. */
function revision(): { commit: string | undefined; dirty: boolean | undefined } {
  const git = (...args: string[]) => execFileSync('git', args, { cwd: ROOT, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim()
  try {
    return { commit: git('rev-parse', 'HEAD'), dirty: git('status', '--porcelain', '--untracked-files=no', '--', '.', ':!bench').length > 0 }
  } catch {
    return { commit: undefined, dirty: undefined }
  }
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b)
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2
}

async function measure() {
  console.log(`Sightline benchmark: ${os.cpus().length} CPUs (${os.cpus()[0]?.model ?? 'unknown'}), Node ${process.version}`)
  console.log(`data dir ${dataDir}; load average ${loadAverageAtStart.map((x) => x.toFixed(2)).join(' ')}`)

  console.log('Start-up')
  // As an operator might: SIGTERM as soon as the server answers, even if it is still starting its worker.
  const first = await start('first start (init)', 120_000, 'first /ping 200')
  await stopRun(first)

  const warm: StartRun[] = []
  for (let i = 1; i <= WARM_STARTS; i++) {
    const run = await start(`warm start ${i}`, 60_000, 'Sightline started')
    warm.push(run)
    // the last one stays up for the measurements below
    if (i < WARM_STARTS) await stopRun(run)
  }
  const server = current!

  console.log(`Load: GET ${LOAD.path}, ${LOAD.connections} connections, ${LOAD.warmupS} s warm-up + ${LOAD.durationS} s`)
  const cookie = await setUpAndSignIn(server.port)
  const load = await loadTest({ port: server.port, serverPgid: server.pid, cookie, ...LOAD })

  console.log('Scripts')
  const home = await pageScripts(server.port, '/', cookie)
  const login = await pageScripts(server.port, '/login')
  const notLoaded = builtScriptsNotLoaded([home, login])

  await stopRun(warm[warm.length - 1])
  const profile = PROFILE ? await profileLoad(cookie) : undefined
  return { first, warm, load, home, login, notLoaded, profile }
}

/**
 * Start another server under `--cpu-prof`, run the same load, stop it, and summarise the samples taken during the
 * measured part of the load. Its figures carry the profiler's overhead, so they are reported apart.
 */
async function profileLoad(cookie: string): Promise<{ load: LoadResult; summary: ProfileSummary; file: string }> {
  if (interrupted) throw new Error('interrupted')
  console.log('Profile: the same load against a server running under --cpu-prof')
  const profDir = path.join(logDir, 'prof')
  // Plain node with tsx's loader: the tsx CLI would SIGKILL a child that is slow (under the profiler) to take
  // SIGTERM, and a killed process writes no profile.
  const { server } = await startSightline({
    dataDir, logDir, label: 'profiled', timeoutMs: 60_000, nodeArgs: ['--cpu-prof', `--cpu-prof-dir=${profDir}`],
    onSpawn: (s) => (current = s),
  })
  await server.started(30_000)
  const load = await loadTest({ port: server.port, serverPgid: server.pid, cookie, ...LOAD })
  const loadEnded = performance.now()
  const stop = await stopCurrent()
  if (!stop || stop.exitCode !== 0) throw new Error(`the profiled server did not exit cleanly: ${JSON.stringify(stop)}`)
  const sinceLoad = (performance.now() - loadEnded) / 1000
  const profiles = fs.existsSync(profDir) ? fs.readdirSync(profDir).filter((f) => f.endsWith('.cpuprofile')) : []
  const biggest = profiles.map((f) => path.join(profDir, f)).sort((a, b) => fs.statSync(b).size - fs.statSync(a).size)[0]
  if (!biggest) throw new Error(`no .cpuprofile written in ${profDir}`)
  fs.mkdirSync(PROFILES_DIR, { recursive: true })
  const file = path.join(PROFILES_DIR, `session-load-${new Date().toISOString().replace(/[:.]/g, '-')}.cpuprofile`)
  fs.copyFileSync(biggest, file)
  return { load, summary: summariseProfile(file, sinceLoad + LOAD.durationS, sinceLoad), file }
}

type Measured = Awaited<ReturnType<typeof measure>>

const s = (ms: number) => `${(ms / 1000).toFixed(2)} s`
const msf = (ms: number) => `${ms.toFixed(2)} ms`
const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`

function summarise(m: Measured) {
  const runs = [m.first, ...m.warm]
  const stops = runs.map((r) => r.stop).filter((x): x is StopResult => !!x)
  const clean = (x: StopResult | undefined) => !!x && x.exitedInTime && x.exitCode === 0 && x.postgresGone
  const early = runs.filter((r) => r.sigtermAfter === 'first /ping 200')
  const late = runs.filter((r) => r.sigtermAfter === 'Sightline started')
  const warmMedian = median(m.warm.map((r) => r.ms))
  const homeKB = m.home.totalGzipBytes / 1024
  const checks = {
    firstStart: m.first.ms < TARGETS.firstStartMs,
    warmStart: warmMedian < TARGETS.warmStartMs,
    sessionP50: m.load.p50Ms < TARGETS.sessionP50Ms,
    homeJs: homeKB < TARGETS.homeJsGzipKB,
    loginNoScripts: m.login.scripts.length === 0 && m.login.totalGzipBytes === 0,
    cleanShutdownRightAfterPing: early.every((r) => clean(r.stop)),
    cleanShutdownAfterStarted: late.every((r) => clean(r.stop)),
    loadAllOk: m.load.non2xx === 0 && m.load.errors === 0 && m.load.timeouts === 0,
  }
  const mark = (ok: boolean) => (ok ? 'ok' : 'MISS')
  const describeStop = (rs: StartRun[]) => {
    const xs = rs.map((r) => r.stop!).filter(Boolean)
    const slowest = Math.max(...xs.map((x) => x.exitMs))
    const codes = [...new Set(xs.map((x) => x.exitCode ?? x.signal))].join(',')
    const pgLeft = xs.filter((x) => !x.postgresGone).length
    return `${s(slowest)}, exit ${codes}, pg ${pgLeft ? `LEFT RUNNING (${pgLeft}x)` : 'gone'}`
  }
  const fmtMs = (x: number | undefined) => (x === undefined ? '?' : `${Math.round(x)}`)
  const rows: [string, string, string, string][] = [
    ['First start (init): spawn to /ping 200', s(m.first.ms), `< ${TARGETS.firstStartMs / 1000} s`, mark(checks.firstStart)],
    [`Warm start: spawn to /ping 200 (median of ${m.warm.length})`, s(warmMedian), `< ${TARGETS.warmStartMs / 1000} s`, mark(checks.warmStart)],
    ['  warm starts', m.warm.map((r) => (r.ms / 1000).toFixed(2)).join(' / ') + ' s', '', ''],
    ['  CPU used by Node to /ping 200, first / warm median', `${m.first.cpuS.toFixed(2)} / ${median(m.warm.map((r) => r.cpuS)).toFixed(2)} s`, '', ''],
    ['  warm: spawn to "Sightline started" (median)', s(median(m.warm.map((r) => r.startedMs ?? NaN))), '', ''],
    ['  time inside startSightline, first / warm median',
      `${fmtMs(m.first.serverReportedMs)} / ${fmtMs(median(m.warm.map((r) => r.serverReportedMs ?? NaN)))} ms`, '', ''],
    ['Shutdown: SIGTERM right after first /ping 200', describeStop(early), `< ${CLEAN_EXIT_MS / 1000} s, exit 0, pg gone`,
      checks.cleanShutdownRightAfterPing ? 'ok' : 'FAIL'],
    [`Shutdown: SIGTERM once started (slowest of ${late.length})`, describeStop(late), `< ${CLEAN_EXIT_MS / 1000} s, exit 0, pg gone`,
      checks.cleanShutdownAfterStarted ? 'ok' : 'FAIL'],
    [`GET ${m.load.path} p50 (${m.load.connections} conns, ${m.load.durationS} s)`, msf(m.load.p50Ms), `< ${TARGETS.sessionP50Ms} ms`, mark(checks.sessionP50)],
    [`GET ${m.load.path} p99`, msf(m.load.p99Ms), '', ''],
    [`GET ${m.load.path} throughput`, `${Math.round(m.load.requestsPerSecond)} req/s`, '', ''],
    [`GET ${m.load.path} server CPU per request`, `${Math.round(m.load.serverCpuPerRequestUs)} µs`, '', ''],
    ['  CPU during the load: server / autocannon / other', cpuSplit(m.load), '', ''],
    [`GET ${m.load.path} non-2xx / errors / timeouts`, `${m.load.non2xx} / ${m.load.errors} / ${m.load.timeouts}`, '0 / 0 / 0',
      checks.loadAllOk ? 'ok' : 'FAIL'],
    [`Home page (/) JS, gzip, ${m.home.scripts.length} scripts`, kb(m.home.totalGzipBytes), `< ${TARGETS.homeJsGzipKB} KB`, mark(checks.homeJs)],
    ['/login JS', `${m.login.scripts.length} scripts / ${m.login.totalGzipBytes} B`, '0 / 0 B', checks.loginNoScripts ? 'ok' : 'FAIL'],
  ]
  return { rows, checks, warmMedian, stops }
}

/** CPU seconds per wall second (1.0 = one core busy) for the server, the load generator and other programs. */
function cpuSplit(l: LoadResult): string {
  const per = (x: number) => (x / l.cpu.wallS).toFixed(2)
  return `${per(l.cpu.serverS)} / ${per(l.cpu.benchS)} / ${per(l.cpu.otherS)} of ${l.cpu.cpus} cores`
}

function table(rows: string[][]): string {
  const head = ['Measure', 'Value', 'Target', 'Result']
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)))
  const line = (r: string[]) => '| ' + r.map((c, i) => c.padEnd(widths[i])).join(' | ') + ' |'
  return [line(head), '|' + widths.map((w) => '-'.repeat(w + 2)).join('|') + '|', ...rows.map(line)].join('\n')
}

function scriptBreakdown(page: PageScripts): string {
  if (!page.scripts.length) return `  ${page.page}: no scripts`
  return page.scripts.map((x) => `  ${kb(x.gzipBytes).padStart(9)} gzip  ${kb(x.rawBytes).padStart(9)} raw  ${x.url}`).join('\n')
}

let exitCode = 0
try {
  const m = await measure()
  const { rows, checks, warmMedian, stops } = summarise(m)
  const date = new Date().toISOString()
  console.log(`\nResults (${date.slice(0, 10)}):\n`)
  console.log(table(rows))
  console.log(`\nHome page scripts (static imports only; lazily imported chunks load on demand and are not counted):`)
  console.log(scriptBreakdown(m.home))
  console.log(`  total ${kb(m.home.totalGzipBytes)} gzip (${m.home.totalGzipBytes} B), ${kb(m.home.totalRawBytes)} raw`)
  if (m.notLoaded.length) console.log(`Built scripts neither page loads up front (other islands, lazy chunks): ${m.notLoaded.length}`)
  const others = m.load.cpu.otherS / m.load.cpu.wallS
  if (others > 0.2) {
    console.log(`Note: other programs kept ${others.toFixed(2)} of ${m.load.cpu.cpus} cores busy during the load test ` +
      `(load average ${m.load.loadAverageBefore.toFixed(2)} before it), so latency and throughput are pessimistic; ` +
      'server CPU per request is the steadier figure.')
  }
  console.log(`autocannon's own latency summary (1 ms resolution): p50 ${m.load.autocannon.p50Ms} ms, p99 ${m.load.autocannon.p99Ms} ms, ` +
    `mean ${m.load.autocannon.averageMs} ms; ${m.load.requests} requests`)

  if (m.profile) {
    const p = m.profile
    console.log(`\nProfiled run (with profiler overhead): p50 ${msf(p.load.p50Ms)}, p99 ${msf(p.load.p99Ms)}, ` +
      `${Math.round(p.load.requestsPerSecond)} req/s, ${Math.round(p.load.serverCpuPerRequestUs)} µs server CPU per request. ` +
      'Server CPU during the load:')
    console.log(formatProfile(p.summary))
    console.log(`Profile saved to ${path.relative(process.cwd(), p.file)} (open it in Chrome DevTools > Performance)`)
  }

  const results = {
    date,
    ...revision(),
    loadAverageAtStart,
    machine: { cpus: os.cpus().length, cpuModel: os.cpus()[0]?.model, memoryGB: Math.round(os.totalmem() / 2 ** 30), node: process.version, platform: `${os.platform()}-${os.arch()}` },
    targets: TARGETS,
    checks,
    start: {
      firstMs: m.first.ms,
      firstServerReportedMs: m.first.serverReportedMs,
      warmMedianMs: warmMedian,
      warmMs: m.warm.map((r) => r.ms),
      firstCpuS: m.first.cpuS,
      warmCpuS: m.warm.map((r) => r.cpuS),
      warmServerReportedMs: m.warm.map((r) => r.serverReportedMs),
      warmStartedMs: m.warm.map((r) => r.startedMs),
      shutdowns: [m.first, ...m.warm].map((r) => ({
        after: r.label, sigtermAfter: r.sigtermAfter, ...r.stop, leftoverPostmasterStopped: r.leftoverPostmasterStopped,
      })),
    },
    session: m.load satisfies LoadResult,
    scripts: { home: m.home, login: m.login, builtButNotLoadedUpFront: m.notLoaded },
    ...(m.profile ? { profile: { load: m.profile.load, file: path.relative(process.cwd(), m.profile.file), ...m.profile.summary } } : {}),
    table: table(rows),
  }
  fs.writeFileSync(RESULTS_FILE, JSON.stringify(results, null, 2) + '\n')
  console.log(`\nWrote ${path.relative(process.cwd(), RESULTS_FILE)}`)
  // Broken behaviour (unclean shutdown, failed requests, scripts on /login) fails the run; slow figures only say MISS.
  for (const r of [m.first, ...m.warm]) {
    const x = r.stop
    if (x && (!x.postgresGone || !x.exitedInTime || x.exitCode !== 0)) {
      console.error(`Unclean shutdown after ${r.label} (SIGTERM after ${r.sigtermAfter}): exit ${x.exitCode ?? x.signal} in ` +
        `${Math.round(x.exitMs)} ms, embedded PostgreSQL ${x.postgresGone ? 'stopped' : 'left running (the benchmark stopped it)'}`)
    }
  }
  if (!checks.cleanShutdownRightAfterPing || !checks.cleanShutdownAfterStarted || !checks.loadAllOk || !checks.loginNoScripts) exitCode = 1
} catch (error) {
  exitCode = 1
  console.error('\nBenchmark failed:', error instanceof Error ? error.message : error)
  if (current) console.error(`Last server output:\n${current.logTail()}`)
} finally {
  if (!interrupted) await cleanUp()
}
if (!interrupted) process.exit(exitCode)
