import { describe, expect, it } from 'vitest'
import { ApiError } from '../../../islands/lib/api.ts'
import type { ExecutionJobJson, QueryResult } from '../../../islands/lib/editor/types.ts'
import { ExecutionMachine, initialExecution, SILENT_JOB_MS, SLOW_POLL_MS, type ExecutionDeps, type ExecutionState } from '../../../islands/lib/editor/use-execution.ts'

const REQUEST = { query: 'select 1', data_source_id: 1, parameters: {}, apply_auto_limit: true, query_id: null }
const RESULT: QueryResult = { id: 7, data: { columns: [{ name: 'n', type: 'integer' }], rows: [{ n: 1 }] }, runtime: 0.1, retrieved_at: '2026-01-01T00:00:00Z' }
const job = (status: ExecutionJobJson['status'], o: Partial<ExecutionJobJson> = {}): ExecutionJobJson => ({ id: 'job-1', status, error: '', query_result_id: null, ...o })

/** A fake server answering each call from a script, recording the calls and the waits in between. */
function fakeWorld(answers: Record<string, (() => unknown)[]>, clock = { ms: 1000 }) {
  const calls: string[] = []
  const outcomes: unknown[] = []
  const sleeps: number[] = []
  const phases: string[] = []
  const deps: ExecutionDeps = {
    call: async <T,>(method: string, path: string) => {
      const key = `${method} ${path}`
      calls.push(key)
      const next = answers[key]?.shift()
      if (!next) throw new Error(`unexpected call ${key}`)
      return next() as T
    },
    sleep: async (ms) => {
      sleeps.push(ms)
      clock.ms += ms
    },
    now: () => clock.ms,
    notify: (outcome) => void outcomes.push(outcome),
  }
  const states: ExecutionState[] = []
  const machine = new ExecutionMachine(deps, initialExecution(null), (s) => {
    states.push(s)
    if (phases.at(-1) !== s.phase) phases.push(s.phase)
  })
  return { machine, calls, sleeps, phases, states, outcomes }
}

describe('the execution machine', () => {
  it('announces the outcome of a run the user asked for, and not of the one a page makes as it opens', async () => {
    const w = fakeWorld({
      'POST /api/query_results': [() => ({ query_result: RESULT }), () => ({ query_result: RESULT }), () => ({ job: job(2) })],
      'GET /api/jobs/job-1': [() => ({ job: job(4, { error: 'division by zero' }) })],
    })
    await w.machine.execute(REQUEST, { initial: true })
    expect(w.outcomes).toEqual([])
    await w.machine.execute(REQUEST)
    await w.machine.execute(REQUEST)
    expect(w.outcomes).toEqual([{ phase: 'done', result: RESULT }, { phase: 'failed', error: 'division by zero' }])
  })

  it('shows a result that came back at once', async () => {
    const w = fakeWorld({ 'POST /api/query_results': [() => ({ query_result: RESULT })] })
    await w.machine.execute(REQUEST)
    expect(w.phases).toEqual(['waiting', 'done'])
    expect(w.machine.state.result).toEqual(RESULT)
  })

  it('polls every 500 ms for 10 polls, then every 3 s, and loads the result when the job is done', async () => {
    const running = Array.from({ length: 12 }, (_, i) => () => ({ job: job(i < 2 ? 1 : 2) }))
    const w = fakeWorld({
      'POST /api/query_results': [() => ({ job: job(1) })],
      'GET /api/jobs/job-1': [...running, () => ({ job: job(3, { query_result_id: 7 }) })],
      'GET /api/query_results/7': [() => ({ query_result: RESULT })],
    })
    await w.machine.execute(REQUEST)
    expect(w.sleeps).toEqual([...Array(10).fill(500), 3000, 3000, 3000])
    expect(w.phases).toEqual(['waiting', 'processing', 'loading-result', 'done'])
    expect(w.machine.state.result?.id).toBe(7)
  })

  it('stops polling when the server says no worker can run the job, and shows its words', async () => {
    const reason = 'No worker is running to run this query. It stays queued and runs as soon as a worker starts.'
    const w = fakeWorld({
      'POST /api/query_results': [() => ({ job: job(1) })],
      'GET /api/jobs/job-1': [() => ({ job: job(1) }), () => ({ job: { ...job(1), waiting_reason: reason } })],
    })
    await w.machine.execute(REQUEST)
    expect(w.calls.filter((c) => c.startsWith('GET'))).toHaveLength(2)
    expect(w.machine.state).toMatchObject({ phase: 'failed', error: reason, jobId: null })
    expect(w.outcomes).toEqual([{ phase: 'failed', error: reason }])
  })

  it('gives up on a job that has not changed at all for 10 minutes, but not on a long run the server says is alive', async () => {
    const clock = { ms: 1000 }
    const silent = fakeWorld({
      'POST /api/query_results': [() => ({ job: job(2) })],
      'GET /api/jobs/job-1': Array.from({ length: 400 }, () => () => ({ job: { ...job(2), updated_at: '2026-01-01T00:00:00Z' } })),
    }, clock)
    await silent.machine.execute(REQUEST)
    expect(silent.machine.state).toMatchObject({ phase: 'failed', error: expect.stringMatching(/for 10 minutes, so it may have been lost/) })
    expect(clock.ms - 1000).toBeGreaterThanOrEqual(SILENT_JOB_MS)
    expect(clock.ms - 1000).toBeLessThan(SILENT_JOB_MS + SLOW_POLL_MS * 2)

    // touched once a minute by its live worker: polled on for 20 minutes, until it is done
    const alive = { ms: 1000 }
    const touched = () => ({ job: { ...job(2), updated_at: `minute ${Math.floor(alive.ms / 60_000)}` } })
    const long = fakeWorld({
      'POST /api/query_results': [() => ({ job: job(2) })],
      'GET /api/jobs/job-1': Array.from({ length: 600 }, () => () => (alive.ms < 20 * 60_000 ? touched() : { job: job(3, { query_result_id: 7 }) })),
      'GET /api/query_results/7': [() => ({ query_result: RESULT })],
    }, alive)
    await long.machine.execute(REQUEST)
    expect(long.machine.state.phase).toBe('done')
  })

  it('reports a failed job with its error', async () => {
    const w = fakeWorld({
      'POST /api/query_results': [() => ({ job: job(2) })],
      'GET /api/jobs/job-1': [() => ({ job: job(4, { error: 'relation "nope" does not exist' }) })],
    })
    await w.machine.execute(REQUEST)
    expect(w.machine.state).toMatchObject({ phase: 'failed', error: 'relation "nope" does not exist' })
  })

  it('counts the interval from one question to the next, so a question the server held is followed at once', async () => {
    const clock = { ms: 1000 }
    const held = (ms: number, answer: unknown) => () => {
      clock.ms += ms // the server held the question this long
      return answer
    }
    const w = fakeWorld({
      'POST /api/query_results': [held(500, { job: job(2) })],
      'GET /api/jobs/job-1': [held(500, { job: job(2) }), held(200, { job: job(2) }), () => ({ job: job(3, { query_result_id: 7 }) })],
      'GET /api/query_results/7': [() => ({ query_result: RESULT })],
    }, clock)
    await w.machine.execute(REQUEST)
    expect(w.sleeps).toEqual([0, 0, 300])
    expect(w.machine.state.result?.id).toBe(7)
  })

  it('retries a failed result load after 1 s, 2 s and 4 s, then gives up with the message', async () => {
    const failing = () => { throw new ApiError('Internal Server Error', 500, null) }
    const w = fakeWorld({
      'POST /api/query_results': [() => ({ job: job(3, { query_result_id: 7 }) })],
      'GET /api/query_results/7': [failing, failing, failing, failing],
    })
    await w.machine.execute(REQUEST)
    expect(w.sleeps).toEqual([1000, 2000, 4000])
    expect(w.machine.state).toMatchObject({ phase: 'failed', error: 'Internal Server Error' })
  })

  it('succeeds when a retry of the result load works', async () => {
    const w = fakeWorld({
      'POST /api/query_results': [() => ({ job: job(3, { query_result_id: 7 }) })],
      'GET /api/query_results/7': [() => { throw new ApiError('busy', 503, null) }, () => ({ query_result: RESULT })],
    })
    await w.machine.execute(REQUEST)
    expect(w.sleeps).toEqual([1000])
    expect(w.machine.state.phase).toBe('done')
  })

  it('says the cached result is gone on a 404, without retrying', async () => {
    const w = fakeWorld({
      'POST /api/query_results': [() => ({ job: job(3, { query_result_id: 7 }) })],
      'GET /api/query_results/7': [() => { throw new ApiError('Not found', 404, null) }],
    })
    await w.machine.execute(REQUEST)
    expect(w.sleeps).toEqual([])
    expect(w.machine.state.error).toBe('cached query result unavailable, please execute again.')
  })

  it('reports a refused submission with the server message', async () => {
    const w = fakeWorld({ 'POST /api/query_results': [() => { throw new ApiError('Please select data source to run this query.', 400, null) }] })
    await w.machine.execute(REQUEST)
    expect(w.machine.state).toMatchObject({ phase: 'failed', error: 'Please select data source to run this query.' })
  })

  it('cancels: Cancelling… until the job reports the cancellation as its failure', async () => {
    let machine!: ExecutionMachine
    const w = fakeWorld({
      'POST /api/query_results': [() => ({ job: job(2) })],
      'GET /api/jobs/job-1': [
        () => { void machine.cancel(); return { job: job(2) } },
        () => ({ job: job(4, { error: 'Query cancelled by user.' }) }),
      ],
      'DELETE /api/jobs/job-1': [() => ({ job: job(2) })],
    })
    machine = w.machine
    await w.machine.execute(REQUEST)
    expect(w.calls).toContain('DELETE /api/jobs/job-1')
    expect(w.states.some((s) => s.cancelling && s.phase === 'processing')).toBe(true)
    expect(w.machine.state).toMatchObject({ phase: 'failed', error: 'Query cancelled by user.', cancelling: false })
  })

  it('keeps the previous result on screen while a new execution runs and after it fails', async () => {
    const w = fakeWorld({
      'POST /api/query_results': [() => ({ query_result: RESULT }), () => ({ job: job(4, { error: 'boom' }) })],
    })
    await w.machine.execute(REQUEST)
    await w.machine.execute(REQUEST)
    expect(w.machine.state).toMatchObject({ phase: 'failed', error: 'boom', result: RESULT })
  })

  it('lets a newer execution supersede a running one', async () => {
    let machine!: ExecutionMachine
    const second = { ...RESULT, id: 8 }
    const w = fakeWorld({
      'POST /api/query_results': [() => ({ job: job(1) }), () => ({ query_result: second })],
      'GET /api/jobs/job-1': [() => { void machine.execute(REQUEST); return { job: job(3, { query_result_id: 7 }) } }],
    })
    machine = w.machine
    await w.machine.execute(REQUEST)
    await new Promise((r) => setTimeout(r, 0))
    expect(w.calls).not.toContain('GET /api/query_results/7')
    expect(w.machine.state.result?.id).toBe(8)
  })
})
