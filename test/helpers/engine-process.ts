import { spawn, type ChildProcess } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'

/**
 * A server binary a test file starts for itself (Prometheus, InfluxDB): its own temporary directory, its output kept
 * for the error when it does not come up, stopped and removed by `stop`.
 */
export interface EngineProcess {
  dir: string
  output(): string
  stop(): Promise<void>
}

export function startEngine(bin: string, args: string[], dir: string): EngineProcess & { child: ChildProcess } {
  const child = spawn(bin, args, { cwd: dir, stdio: ['ignore', 'pipe', 'pipe'] })
  let output = ''
  const keep = (d: Buffer) => {
    output = (output + d).slice(-20_000)
  }
  child.stdout!.on('data', keep)
  child.stderr!.on('data', keep)
  const exited = new Promise<void>((resolve) => (child.exitCode !== null ? resolve() : child.once('exit', () => resolve())))
  return {
    child, dir, output: () => output,
    stop: async () => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM')
      await exited
      fs.rmSync(dir, { recursive: true, force: true })
    },
  }
}

export const tempDir = (name: string) => fs.mkdtempSync(path.join(os.tmpdir(), `sightline-${name}-`))

/** The first of `paths` that exists, or an error naming the Debian package that provides it. */
export function binary(paths: string[], pkg: string): string {
  const bin = paths.find((p) => fs.existsSync(p))
  if (!bin) throw new Error(`no ${path.basename(paths[0])} binary: install Debian's ${pkg} (scripts/test-engines.sh does)`)
  return bin
}

/**
 * Polls `ready` (an HTTP readiness check) until it holds, failing with the engine's output when the process exits or
 * `timeoutMs` passes first.
 */
export async function waitReady(engine: EngineProcess & { child: ChildProcess }, what: string, ready: () => Promise<boolean>, timeoutMs = 60_000) {
  const started = Date.now()
  for (;;) {
    if (engine.child.exitCode !== null) throw new Error(`${what} exited (${engine.child.exitCode}):\n${engine.output()}`)
    if (await ready().catch(() => false)) return
    if (Date.now() - started > timeoutMs) throw new Error(`${what} not ready within ${timeoutMs} ms:\n${engine.output()}`)
    await new Promise((r) => setTimeout(r, 100))
  }
}
