import crypto from 'node:crypto'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import type { DuckDBConnection, DuckDBInstance } from '@duckdb/node-api'
import { bundledFile, isBundled } from './bundled-databases.ts'
import { bool, errorMessage, str } from './common.ts'
import { CheckedPlans, RunPlans } from './duckdb-plans.ts'
import { RunnerError, type RunnerConfig } from './runner.ts'

/*
 * DuckDB engines opened for data sources, locked down before any query sees them: external access off (no file but
 * the database's own, and the directories an admin lists in Allowed Directories), no extension installed or loaded,
 * and the configuration locked so no query can undo that or change a setting another member's run would inherit.
 * What a query may still do to the shared engine through statements is checked per statement (duckdb-statements.ts).
 */

/** The engine (a large native library) is loaded on first use. */
let driver: Promise<typeof import('@duckdb/node-api')> | undefined
export const loadDriver = () => (driver ??= import('@duckdb/node-api'))

export interface DuckDBTarget {
  path: string
  readOnly: boolean
  /** Absolute directories (ending in "/") whose files queries may read. */
  allowedDirectories: string[]
}

/** The source's database and lockdown, from its configuration; a relative allowed directory is refused. */
export function targetOf(config: RunnerConfig): DuckDBTarget {
  const allowedDirectories = str(config, 'allowed_directories').split(',').map((d) => d.trim()).filter(Boolean).map((d) => {
    if (!path.isAbsolute(d)) throw new RunnerError(`Allowed Directories must be absolute paths: ${d}`, 'connection')
    return path.resolve(d).replace(/\/?$/, '/')
  })
  // read-only lets several processes (web and worker) open one file at once; a writer locks it
  return { path: str(config, 'dbpath', ':memory:'), readOnly: bool(config, 'read_only'), allowedDirectories }
}

const quote = (s: string) => `'${s.replaceAll("'", "''")}'`

async function lockedInstance(target: DuckDBTarget, tempDirectory?: string): Promise<DuckDBInstance> {
  const { DuckDBInstance } = await loadDriver()
  const instance = await DuckDBInstance.create(target.path, {
    ...(target.readOnly && target.path !== ':memory:' ? { access_mode: 'READ_ONLY' } : {}),
    ...(tempDirectory ? { temp_directory: tempDirectory } : {}),
    autoinstall_known_extensions: 'false',
    autoload_known_extensions: 'false',
    allow_community_extensions: 'false',
  })
  const setup = await instance.connect()
  try {
    // the list can only be given before external access is turned off, and neither after the lock
    if (target.allowedDirectories.length) await setup.run(`set allowed_directories = [${target.allowedDirectories.map(quote).join(', ')}]`)
    await setup.run('set enable_external_access = false')
    await setup.run('set lock_configuration = true')
  } catch (e) {
    instance.closeSync()
    throw e
  } finally {
    setup.closeSync()
  }
  return instance
}

interface Shared {
  signature: string
  instance: Promise<DuckDBInstance>
  users: number
  retired: boolean
  /** Plans found clean on this engine, for every run on it. */
  plans: CheckedPlans
  closed: Promise<void>
  close(): void
}

/**
 * One instance per database file for the whole process (DuckDB locks the file). Kept here rather than asking
 * DuckDBInstance.fromCache on every run: a dropped cache wrapper, once garbage-collected, can leave the next
 * connection to that file waiting forever (seen with 1.5.6-r.1).
 */
const shared = new Map<string, Shared>()

function share(key: string, target: DuckDBTarget, signature: string): Shared {
  let done!: () => void
  const closed = new Promise<void>((r) => (done = r))
  const entry: Shared = {
    signature, users: 0, retired: false, closed, plans: new CheckedPlans(),
    instance: lockedInstance(target),
    close() {
      entry.instance.then((i) => i.closeSync(), () => {}).finally(done)
    },
  }
  entry.instance.catch(() => {
    if (shared.get(key) === entry) shared.delete(key)
    done()
  })
  shared.set(key, entry)
  return entry
}

async function sharedInstance(target: DuckDBTarget): Promise<{ instance: DuckDBInstance; entry: Shared }> {
  const key = `${target.readOnly ? 'ro' : 'rw'}:${target.path}`
  const signature = target.allowedDirectories.join('\n')
  let entry = shared.get(key)
  if (entry && entry.signature !== signature) {
    // the admin changed the source's lockdown: new runs get a new instance, the old one closes once idle
    const old = entry
    shared.delete(key)
    old.retired = true
    if (!old.users) old.close()
    // two writers on one file in one process would corrupt it: wait for the old one to close
    if (!target.readOnly) await old.closed
    entry = shared.get(key)
  }
  entry ??= share(key, target, signature)
  entry.users++
  try {
    return { instance: await entry.instance, entry }
  } catch (e) {
    entry.users--
    throw e
  }
}

export interface Opened {
  conn: DuckDBConnection
  target: DuckDBTarget
  /** The engine's plans already checked (duckdb-statements.ts). */
  plans: RunPlans
  release(): void
}

/**
 * Plans checked on fresh in-memory engines, by lockdown: every such engine starts with the same empty catalog, so
 * a text's plan is the same on all of them.
 */
const freshEnginePlans = new Map<string, CheckedPlans>()

function plansOfFreshEngines(target: DuckDBTarget): CheckedPlans {
  const signature = target.allowedDirectories.join('\n')
  let plans = freshEnginePlans.get(signature)
  if (!plans) freshEnginePlans.set(signature, (plans = new CheckedPlans()))
  return plans
}

/**
 * The source's target with a bundled database (`sightline:demo`) resolved to this process's own copy, which queries
 * may only read.
 */
async function resolvedTarget(config: RunnerConfig): Promise<DuckDBTarget> {
  const target = targetOf(config)
  if (!isBundled(target.path)) return target
  try {
    return { ...target, path: await bundledFile(target.path), readOnly: true }
  } catch (e) {
    throw e instanceof RunnerError ? e : new RunnerError(`Could not prepare the DuckDB database ${target.path}: ${errorMessage(e)}`, 'connection')
  }
}

interface MemoryInstance {
  instance: DuckDBInstance
  tempDirectory: string
}

/**
 * The next in-memory engine, locked down and ready before a run asks for it (by its Allowed Directories): starting
 * one (its thread pool, its settings) took about as long as the rest of a small query's run.
 */
let spare: { signature: string; ready: Promise<MemoryInstance> } | undefined

function newMemoryInstance(target: DuckDBTarget): Promise<MemoryInstance> {
  const tempDirectory = path.join(os.tmpdir(), `sightline-duckdb-${crypto.randomBytes(6).toString('hex')}`)
  return lockedInstance(target, tempDirectory).then((instance) => ({ instance, tempDirectory }))
}

/**
 * Engines whose run only read (SELECTs alone: nothing created, written or set), so still as empty as new, kept by
 * lockdown for the next run: opening and closing an engine cost more than a small query's whole run.
 */
const untouched = new Map<string, MemoryInstance[]>()
const UNTOUCHED_KEPT = 2

function closeMemoryInstance({ instance, tempDirectory }: MemoryInstance) {
  instance.closeSync()
  fs.rmSync(tempDirectory, { recursive: true, force: true })
}

function putBack(signature: string, engine: MemoryInstance, pristine: boolean) {
  const kept = untouched.get(signature) ?? []
  if (!pristine || kept.length >= UNTOUCHED_KEPT) return closeMemoryInstance(engine)
  kept.push(engine)
  untouched.set(signature, kept)
}

async function freshMemoryInstance(target: DuckDBTarget): Promise<MemoryInstance> {
  const signature = target.allowedDirectories.join('\n')
  const kept = untouched.get(signature)?.pop()
  if (kept) return kept
  const taken = spare?.signature === signature ? spare.ready : undefined
  const replaced = taken ? undefined : spare?.ready
  spare = { signature, ready: newMemoryInstance(target) }
  spare.ready.catch(() => {}) // a failure is met by the run that takes it
  // a spare of another lockdown is not used: closed
  void replaced?.then(closeMemoryInstance, () => {})
  return taken ?? newMemoryInstance(target)
}

/** A new connection of its own for one run (its session settings and temp tables end with it). */
export async function openConnection(config: RunnerConfig): Promise<Opened> {
  const target = await resolvedTarget(config)
  try {
    if (target.path === ':memory:') {
      // an empty, private database per run, spilling to a directory of its own that no other run can read
      const engine = await freshMemoryInstance(target)
      const conn = await engine.instance.connect()
      const plans = new RunPlans(plansOfFreshEngines(target), false)
      let released = false
      return {
        conn, target, plans,
        release: () => {
          if (released) return
          released = true
          // closing an engine (its threads, its directory) is no part of the answer: after the run's rows are stored
          setImmediate(() => {
            conn.closeSync()
            putBack(target.allowedDirectories.join('\n'), engine, plans.untouched)
          })
        },
      }
    }
    const { instance, entry } = await sharedInstance(target)
    try {
      const conn = await instance.connect()
      const plans = new RunPlans(entry.plans, true)
      let released = false
      return {
        conn, target, plans,
        release: () => {
          if (released) return
          released = true
          conn.closeSync()
          plans.end()
          if (--entry.users === 0 && entry.retired) entry.close()
        },
      }
    } catch (e) {
      if (--entry.users === 0 && entry.retired) entry.close()
      throw e
    }
  } catch (e) {
    throw new RunnerError(`Could not open the DuckDB database ${target.path}: ${errorMessage(e)}`, 'connection')
  }
}
