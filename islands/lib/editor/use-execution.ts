import { useEffect, useRef, useState } from 'react'
import { JobStatus } from '../../../src/shared/job-status.ts'
import { texts } from '../../../src/shared/texts.ts'
import { queryTexts } from '../../../src/shared/query-texts.ts'
import { api, ApiError } from '../api.ts'
import { toast } from '../bus.ts'
import type { ExecutionJobJson, QueryResult } from './types.ts'

const t = queryTexts.editor

/** spec 1 §4/§9: poll every 500 ms, then every 3 s once 10 polls have gone by. */
export const FAST_POLL_MS = 500
export const SLOW_POLL_MS = 3000
export const FAST_POLLS = 10
/** spec 1 §4: a failed result load is retried 3 more times, after 1 s, 2 s and 4 s. */
export const RESULT_RETRY_DELAYS_MS = [1000, 2000, 4000]
/**
 * Polling ends when a job stays exactly as it was this long: the server touches a running job's `updated_at` at least
 * once a minute while its worker lives, and fails it once its worker is gone, so this is the last resort.
 */
export const SILENT_JOB_MS = 10 * 60_000

/** A job as a poll answers it: `updated_at` moves while it is alive; `waiting_reason` when no worker can run it. */
type PolledJob = ExecutionJobJson

export type ExecutionPhase = 'idle' | 'waiting' | 'processing' | 'loading-result' | 'done' | 'failed'

export interface ExecutionState {
  phase: ExecutionPhase
  /** The last result that loaded: it stays on screen while the next execution runs or after one fails. */
  result: QueryResult | null
  error: string | null
  jobId: string | null
  cancelling: boolean
  /** When the running execution was submitted (ms since epoch), for the elapsed timer. */
  startedAt: number | null
}

export interface ExecuteRequest {
  query: string
  data_source_id: number
  parameters: Record<string, unknown>
  apply_auto_limit: boolean
  query_id: number | null
}

/** What the machine needs from the outside world; tests pass fakes. */
export interface ExecutionDeps {
  call: <T>(method: string, path: string, body?: unknown) => Promise<T>
  sleep: (ms: number) => Promise<void>
  now: () => number
  /** Told how each execution ended, except the load on opening the page (spec 2 §4); the page toasts it. */
  notify?: (outcome: ExecutionOutcome) => void
}

export type ExecutionOutcome = { phase: 'done'; result: QueryResult } | { phase: 'failed'; error: string }

export const initialExecution = (result: QueryResult | null): ExecutionState =>
  ({ phase: result ? 'done' : 'idle', result, error: null, jobId: null, cancelling: false, startedAt: null })

export const isRunning = (s: ExecutionState) => s.phase === 'waiting' || s.phase === 'processing' || s.phase === 'loading-result'

const messageOf = (error: unknown) => (error instanceof Error && error.message ? error.message : texts.errors.unknown)

/**
 * One query execution at a time, as a small state machine: submit, poll the job (500 ms, then 3 s), load the
 * result with retries, or cancel. A newer `execute` supersedes a running one: the older loop sees that its
 * generation is stale and stops touching the state.
 */
export class ExecutionMachine {
  private generation = 0
  // the load on opening a page (its stored result, or the run it starts itself) is what the page shows, not news
  private quiet = false
  state: ExecutionState

  constructor(private deps: ExecutionDeps, initial: ExecutionState, private onChange: (s: ExecutionState, previous: ExecutionState) => void) {
    this.state = initial
  }

  private set(change: Partial<ExecutionState>) {
    const previous = this.state
    this.state = { ...this.state, ...change }
    this.onChange(this.state, previous)
  }

  /** `initial`: the run a page starts as it opens (spec 2 §4), whose outcome is not announced. */
  async execute(request: ExecuteRequest, o: { initial?: boolean } = {}): Promise<void> {
    const generation = ++this.generation
    this.quiet = o.initial ?? false
    const live = () => generation === this.generation
    const askedAt = this.deps.now()
    this.set({ phase: 'waiting', error: null, jobId: null, cancelling: false, startedAt: askedAt })
    try {
      const answer = await this.deps.call<{ query_result?: QueryResult; job?: ExecutionJobJson }>('POST', '/api/query_results', { ...request, max_age: 0 })
      if (!live()) return
      if (answer.query_result) return this.finish(answer.query_result)
      if (!answer.job) throw new Error(texts.errors.unknown)
      await this.poll(answer.job, live, askedAt)
    } catch (error) {
      if (live()) this.fail(messageOf(error))
    }
  }

  /**
   * "Every 500 ms" counts from one question to the next. The server holds each question until the job ends or its
   * own wait runs out, so a question it held is followed at once: the end is seen as it happens, with no more
   * requests than a fixed pause would make. It ends, too, when the server says no worker can run the job, or when
   * the job has not changed at all for `SILENT_JOB_MS`.
   */
  private async poll(first: PolledJob, live: () => boolean, askedAt: number) {
    let job = first
    let asked = askedAt
    let seen = { state: '', at: askedAt }
    for (let polls = 0; ; polls++) {
      this.set({ jobId: job.id, phase: job.status === JobStatus.Pending ? 'waiting' : 'processing' })
      if (job.status === JobStatus.Failure) return this.fail(job.error || texts.errors.unknown)
      if (job.status === JobStatus.Success && job.query_result_id != null) return this.loadResult(job.query_result_id, live)
      if (job.waiting_reason) return this.fail(job.waiting_reason)
      const state = `${job.status} ${job.updated_at ?? ''}`
      if (state !== seen.state) seen = { state, at: asked }
      else if (asked - seen.at >= SILENT_JOB_MS) return this.fail(t.jobSilent(SILENT_JOB_MS / 60_000))
      const interval = polls < FAST_POLLS ? FAST_POLL_MS : SLOW_POLL_MS
      await this.deps.sleep(Math.max(0, interval - (this.deps.now() - asked)))
      if (!live()) return
      asked = this.deps.now()
      job = (await this.deps.call<{ job: PolledJob }>('GET', `/api/jobs/${job.id}`)).job
      if (!live()) return
    }
  }

  private async loadResult(id: number, live: () => boolean) {
    this.set({ phase: 'loading-result' })
    for (let attempt = 0; ; attempt++) {
      try {
        const answer = await this.deps.call<{ query_result: QueryResult }>('GET', `/api/query_results/${id}`)
        if (live()) this.finish(answer.query_result)
        return
      } catch (error) {
        if (!live()) return
        if (error instanceof ApiError && error.status === 404) return this.fail(t.resultUnavailable)
        if (attempt >= RESULT_RETRY_DELAYS_MS.length) return this.fail(messageOf(error))
        await this.deps.sleep(RESULT_RETRY_DELAYS_MS[attempt])
        if (!live()) return
      }
    }
  }

  /** Show a stored result (the query's latest when the page opens), as any execution's result is shown. */
  async open(resultId: number): Promise<void> {
    const generation = ++this.generation
    this.quiet = true
    this.set({ startedAt: this.deps.now(), error: null })
    await this.loadResult(resultId, () => generation === this.generation)
  }

  /** Ask the server to stop the running job; polling goes on until the job reports it has failed (cancelled). */
  async cancel(): Promise<void> {
    const { jobId } = this.state
    if (!jobId || this.state.cancelling || !isRunning(this.state)) return
    this.set({ cancelling: true })
    try {
      await this.deps.call('DELETE', `/api/jobs/${jobId}`)
    } catch (error) {
      this.set({ cancelling: false })
      throw error
    }
  }

  /**
   * A run the page refuses before asking the server (blank text, parameters without values), told as any failed
   * run is: the banner and one toast.
   */
  refuse(error: string): void {
    this.generation++
    this.quiet = false
    this.set({ startedAt: null })
    this.fail(error)
  }

  /** Forget the running execution (e.g. the page is leaving). */
  stop() {
    this.generation++
  }

  private finish(result: QueryResult) {
    this.set({ phase: 'done', result, error: null, jobId: null, cancelling: false, startedAt: null })
    this.settled({ phase: 'done', result })
  }

  private fail(error: string) {
    this.set({ phase: 'failed', error, jobId: null, cancelling: false, startedAt: null })
    this.settled({ phase: 'failed', error })
  }

  private settled(outcome: ExecutionOutcome) {
    if (!this.quiet) this.deps.notify?.(outcome)
  }
}

const browserDeps: ExecutionDeps = {
  call: (method, path, body) => api(method, path, body),
  sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
  now: () => Date.now(),
}

/**
 * The toast for an execution's outcome: '{name} updated.' or '{name} failed to run: {error}' (spec 2 §4) for a
 * saved query; for text that is not one (a new query, unsaved changes) a wording that does not read as saved.
 */
export function toastOutcome(name: string | null, outcome: ExecutionOutcome) {
  if (outcome.phase === 'done') toast(name === null ? t.adhocRan(t.rows(outcome.result.data.rows.length)) : t.executionUpdated(name))
  else toast(name === null ? t.adhocFailed(outcome.error) : t.executionFailed(name, outcome.error), 'error')
}

/**
 * The execution machine as React state; `name` gives the name for the outcome toasts: the query's, or null for a
 * run of text that is not a saved query's.
 */
export function useExecution(initialResult: QueryResult | null, name?: () => string | null) {
  const [state, setState] = useState(() => initialExecution(initialResult))
  const machine = useRef<ExecutionMachine>(null)
  if (!machine.current) {
    const notify = name && ((outcome: ExecutionOutcome) => toastOutcome(name(), outcome))
    machine.current = new ExecutionMachine({ ...browserDeps, notify }, state, (next, previous) => {
      // the moment a result's data is in the browser, so its table's render time can be measured (ResultsTable)
      if (next.result !== previous.result) performance.mark('sightline:result-data', { detail: { id: next.result?.id } })
      setState(next)
    })
  }
  useEffect(() => () => machine.current?.stop(), [])
  return { state, machine: machine.current }
}

/** Elapsed time as mm:ss, or HH:mm:ss from one hour on (spec 2 §9). */
export function elapsedLabel(ms: number): string {
  const total = Math.max(0, Math.floor(ms / 1000))
  const pad = (n: number) => String(n).padStart(2, '0')
  const [h, m, s] = [Math.floor(total / 3600), Math.floor((total % 3600) / 60), total % 60]
  return h > 0 ? `${pad(h)}:${pad(m)}:${pad(s)}` : `${pad(m)}:${pad(s)}`
}
