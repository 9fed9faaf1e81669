/**
 * The import page's state as a pure model: the form that starts an import from an old instance (address, API key,
 * dry run, keep ids), the start request and the server's refusal, and the run being followed, read again until it
 * ends. Side effects are commands the component carries out or async functions given the `api` to call. Tested
 * without React.
 */
import type { ImportRunJson, InstanceRunJson } from '../../../src/shared/import-summary.ts'
import { only, type Step } from '../use-model.ts'

/** How long a running import waits before it is read again. */
export const POLL_MS = 1000

export type Api = <T = unknown>(method: string, path: string, body?: unknown) => Promise<T>
export type TextField = 'fromUrl' | 'apiKey'
export type Flag = 'dryRun' | 'keepIds'
export interface StartBody { from_url: string; api_key: string; dry_run: boolean; keep_ids: boolean }

export interface ImportState {
  /** The run followed: the latest import from an instance, then each one started here. */
  run: InstanceRunJson | null
  fromUrl: string
  apiKey: string
  dryRun: boolean
  keepIds: boolean
  busy: boolean
  error: string
}

/** The latest import from an instance is the one followed; every other run is listed below it. */
export const latestInstanceRun = (runs: ImportRunJson[]): InstanceRunJson | null =>
  runs.find((r): r is InstanceRunJson => r.kind === 'instance') ?? null

export const initialImport = (runs: ImportRunJson[]): ImportState => {
  const run = latestInstanceRun(runs)
  return { run, fromUrl: run?.from_url ?? '', apiKey: '', dryRun: false, keepIds: false, busy: false, error: '' }
}

/** A run still queued or running: no second one starts meanwhile, and it is read again until it ends. */
export const isActive = (run: InstanceRunJson | null): run is InstanceRunJson => !!run && (run.status === 'queued' || run.status === 'running')

export type ImportEvent =
  | { type: 'type'; field: TextField; value: string }
  | { type: 'check'; field: Flag; value: boolean }
  | { type: 'submit' }
  | { type: 'started'; run: InstanceRunJson }
  /** The server refused the start; `reason` is its own words, or what went wrong. */
  | { type: 'refused'; reason: string }
  | { type: 'read'; run: InstanceRunJson }
  /** Reading the run failed: the same run again, as a new value, so the next read is scheduled all the same. */
  | { type: 'readFailed' }

export type ImportCommand = { kind: 'start'; body: StartBody }

export function reduceImport(state: ImportState, event: ImportEvent): Step<ImportState, ImportCommand> {
  switch (event.type) {
    case 'type':
      return only({ ...state, [event.field]: event.value })
    case 'check':
      return only({ ...state, [event.field]: event.value })
    case 'submit': {
      // the button is disabled then; a second start would race the first
      if (state.busy || isActive(state.run)) return only(state)
      const body = { from_url: state.fromUrl, api_key: state.apiKey, dry_run: state.dryRun, keep_ids: state.keepIds }
      return { state: { ...state, busy: true, error: '' }, commands: [{ kind: 'start', body }] }
    }
    case 'started':
      // the key is not kept in the page once the server has it
      return only({ ...state, busy: false, run: event.run, apiKey: '' })
    case 'refused':
      return only({ ...state, busy: false, error: event.reason })
    case 'read':
      return only({ ...state, run: event.run })
    case 'readFailed':
      return only(state.run ? { ...state, run: { ...state.run } } : state)
  }
}

export async function startImport(call: Api, body: StartBody, reasonOf: (error: unknown) => string): Promise<ImportEvent> {
  try {
    return { type: 'started', run: await call<InstanceRunJson>('POST', '/api/imports', body) }
  } catch (error) {
    return { type: 'refused', reason: reasonOf(error) || String(error) }
  }
}

export async function readRun(call: Api, id: number): Promise<ImportEvent> {
  try {
    return { type: 'read', run: await call<InstanceRunJson>('GET', `/api/imports/${id}`) }
  } catch {
    return { type: 'readFailed' }
  }
}
