import { describe, expect, it } from 'vitest'
import { ResultCaps } from '../../src/results/index.ts'
import type { Cell, ColumnType, Runner, RunnerConfig, RunStream } from '../../src/runners/index.ts'
import { collect, expectRunnerError, opts, waitUntil, WAIT_MS } from './support.ts'

/**
 * The runner contract every kind of source keeps (src/runners/runner.ts), as one suite each runner's test calls with
 * its own engine: Test Connection, a simple query's columns and types, the row and byte caps stopping the statement
 * in the engine while the rows stream, a cancel reaching the engine, the schema, and a bad query's message.
 */
export interface ContractSubject {
  runner: Runner
  config: () => RunnerConfig
  /** A query whose answer is known: its columns (name, type) and rows. */
  simple: { text: string; columns: [string, ColumnType | null][]; rows: Cell[][] }
  /** A query whose answer takes many batches: still running in the engine while its first rows are read. */
  large: string
  /**
   * Whether the engine is still running `large` (its process list, the faked service's open statements). Absent for
   * an engine that has finished the statement before its first row can be read (BigQuery's job is done then): a
   * stop then has nothing to end in the engine, and the kind's own test shows a cancel reaching a running one.
   */
  running?: () => Promise<boolean>
  /** A table the schema lists, with (some of) its columns in order; absent for a kind without a schema (Sheets). */
  table?: { name: string; columns: string[] }
  /** A query the engine refuses, and the message the user reads. */
  bad: { text: string; message: RegExp | string }
  /** How soon a stop must reach the engine (a faked service: 1 s). */
  stopWithinMs?: number
}

/** Reads a run through the stored result's caps, as the executions domain does, until a cap ends it. */
async function readCapped(stream: RunStream, limits: { maxRows?: number; maxBytes?: number }) {
  const caps = new ResultCaps({ maxRows: limits.maxRows ?? 1_000_000, maxBytes: limits.maxBytes ?? 100 * 1024 * 1024, maxCellBytes: 1024 * 1024 })
  for await (const batch of stream.batches) {
    caps.keep(batch)
    if (caps.stoppedAt) break
  }
  return caps
}

/**
 * Starts a statement, waits until the engine runs it, aborts, and expects the run to end as cancelled and the engine
 * to stop it (long before it would end by itself). Returns how long the engine took to stop it after the abort.
 */
export async function expectCancelReachesEngine(start: (signal: AbortSignal) => Promise<unknown>, running: () => Promise<boolean>, withinMs = WAIT_MS): Promise<number> {
  const controller = new AbortController()
  const run = start(controller.signal)
  run.catch(() => {})
  await waitUntil(running)
  const aborted = performance.now()
  controller.abort()
  await expectRunnerError(run, 'cancelled', 'Query cancelled by user.')
  await waitUntil(async () => !(await running()), withinMs)
  return performance.now() - aborted
}

/** Waits until the engine no longer runs the subject's large statement (when it can tell). */
async function engineStopped(s: ContractSubject) {
  const running = s.running
  if (running) await waitUntil(async () => !(await running()), s.stopWithinMs ?? WAIT_MS)
}

export function runnerContract(name: string, subject: () => ContractSubject) {
  describe(`${name}: the runner contract`, () => {
    it('Test Connection passes', async () => {
      const s = subject()
      await s.runner.test(s.config(), new AbortController().signal)
    })

    it('a simple query answers its columns, types and rows', async () => {
      const s = subject()
      const stream = await s.runner.run(s.config(), s.simple.text, opts())
      expect(stream.columns.map((c) => [c.name, c.type])).toEqual(s.simple.columns)
      expect((await collect(stream)).rows).toEqual(s.simple.rows)
    })

    it('the row cap stops the rows mid-stream and the statement in the engine', async () => {
      const s = subject()
      const stream = await s.runner.run(s.config(), s.large, opts())
      if (s.running) expect(await s.running()).toBe(true)
      const caps = await readCapped(stream, { maxRows: 10 })
      expect([caps.stoppedAt, caps.rows]).toEqual(['rows', 10])
      await engineStopped(s)
    })

    it('the byte cap stops the rows mid-stream at a whole row, and the statement in the engine', async () => {
      const s = subject()
      const stream = await s.runner.run(s.config(), s.large, opts())
      const caps = await readCapped(stream, { maxBytes: 2_000 })
      expect(caps.stoppedAt).toBe('bytes')
      expect(caps.bytes).toBeLessThanOrEqual(2_000)
      expect(caps.rows).toBeGreaterThan(0)
      await engineStopped(s)
    })

    it('a cancel while the rows stream ends the run as cancelled and reaches the engine', async () => {
      const s = subject()
      const controller = new AbortController()
      const stream = await s.runner.run(s.config(), s.large, { signal: controller.signal, timeoutMs: 600_000 })
      let aborted = 0
      const consume = (async () => {
        for await (const _ of stream.batches) {
          if (!aborted) aborted = performance.now()
          controller.abort()
        }
      })()
      await expectRunnerError(consume, 'cancelled', 'Query cancelled by user.')
      await engineStopped(s)
      expect(performance.now() - aborted).toBeLessThan(s.stopWithinMs ?? WAIT_MS)
    })

    it('the schema lists the tables with their columns', async () => {
      const s = subject()
      const tables = await s.runner.schema(s.config(), new AbortController().signal)
      if (!s.table) return expect(tables).toEqual([])
      const { name, columns } = s.table
      const table = tables.find((t) => t.name === name)
      expect(table?.columns.map((c) => c.name).slice(0, columns.length)).toEqual(columns)
    })

    it('a bad query fails with the engine\'s message', async () => {
      const s = subject()
      await expectRunnerError(s.runner.run(s.config(), s.bad.text, opts()).then(collect), 'query', s.bad.message)
    })
  })
}
