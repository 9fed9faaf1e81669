import { spawn, type ChildProcess } from 'node:child_process'
import path from 'node:path'
import { freePort } from '../../src/db/index.ts'
import { serverBundle } from './server-bundle.ts'

export const ROOT = path.resolve(import.meta.dirname, '../..')

export interface SightlineProcess {
  child: ChildProcess
  port: number
  output(): string
  /** Resolves with the exit code once the process has ended. */
  exited: Promise<number | null>
}

/**
 * Start `src/main.ts` as its own process, the way `npm start` (or `deno task start`) does. Under Node it runs from a
 * bundle of the same sources (see server-bundle.ts), which starts without compiling each module through tsx.
 */
export async function spawnSightline(env: Record<string, string>, runtime: 'node' | 'deno' = 'node'): Promise<SightlineProcess> {
  const port = env.PORT ? Number(env.PORT) : await freePort()
  const [command, args] = runtime === 'node'
    ? [process.execPath, [await serverBundle()]]
    // `deno task serve` is what `deno task start` runs once the assets are built
    : [path.join(ROOT, 'node_modules/deno/deno'), ['task', '--quiet', 'serve']]
  const child = spawn(command, args, {
    cwd: ROOT,
    env: { ...process.env, NODE_ENV: 'production', SIGHTLINE_LOG_LEVEL: 'info', ...env, PORT: String(port) },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let output = ''
  child.stdout!.on('data', (d) => (output += d))
  child.stderr!.on('data', (d) => (output += d))
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)))
  return { child, port, output: () => output, exited }
}

/** Poll GET /ping until it answers 200; fails with the process output when it does not within the time. */
export async function waitForPing(p: SightlineProcess, timeoutMs = 30_000): Promise<number> {
  const started = Date.now()
  while (Date.now() - started < timeoutMs) {
    if (p.child.exitCode !== null) throw new Error(`process exited early (${p.child.exitCode}):\n${p.output()}`)
    try {
      const res = await fetch(`http://127.0.0.1:${p.port}/ping`)
      if (res.status === 200) return Date.now() - started
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 50))
  }
  throw new Error(`no answer on /ping within ${timeoutMs} ms:\n${p.output()}`)
}

export async function waitForOutput(p: SightlineProcess, text: string, timeoutMs = 30_000) {
  const started = Date.now()
  while (!p.output().includes(text)) {
    if (p.child.exitCode !== null) throw new Error(`process exited early (${p.child.exitCode}):\n${p.output()}`)
    if (Date.now() - started > timeoutMs) throw new Error(`"${text}" not seen within ${timeoutMs} ms:\n${p.output()}`)
    await new Promise((r) => setTimeout(r, 50))
  }
}

/** SIGTERM and wait for the exit code (SIGKILL after the time limit, reported as null). */
export async function stopProcess(p: SightlineProcess, timeoutMs = 20_000): Promise<number | null> {
  if (p.child.exitCode !== null) return p.child.exitCode
  p.child.kill('SIGTERM')
  const timer = setTimeout(() => p.child.kill('SIGKILL'), timeoutMs)
  const code = await p.exited
  clearTimeout(timer)
  return code
}
