import { describe, expect, it } from 'vitest'
import { endOrphanQueries, statementQueryId } from './clickhouse-orphan.ts'

/*
 * The decision alone, against a ClickHouse played by `ask`: the kill's answer (one JSON row per query it found) and
 * then an empty system.processes. The real server is exercised in test/runners/orphans.test.ts.
 */
const runId = '0123abcd-4567-89ab-cdef'
const fake = (killed: { kill_status: string; query_id: string }[]) => {
  const asked: string[] = []
  const ask = async (text: string) => {
    asked.push(text)
    return text.startsWith('KILL') ? killed.map((k) => JSON.stringify({ ...k, user: 'default', query: 'INSERT …' })).join('\n') + '\n' : '0\n'
  }
  return { ask, asked }
}

describe('stopping a dead worker\'s ClickHouse run', () => {
  it('waits for the kill to finish (SYNC) and for none of the run\'s queries to be left', async () => {
    const { ask, asked } = fake([])
    await endOrphanQueries(ask, { run_id: runId })
    expect(asked[0]).toMatch(/^KILL QUERY WHERE startsWith\(query_id, '0123abcd-4567-89ab-cdef-'\) SYNC FORMAT JSONEachRow$/)
    expect(asked[1]).toMatch(/FROM system\.processes/)
  })

  it('counts a read as stopped once none of its queries runs, killed or finished', async () => {
    expect(await endOrphanQueries(fake([]).ask, { run_id: runId })).toBe(true)
    expect(await endOrphanQueries(fake([{ kill_status: 'finished', query_id: statementQueryId(runId, 2) }]).ask, { run_id: runId })).toBe(true)
  })

  it('counts a run that may write as stopped only when the kill reports it ended its first statement', async () => {
    const writes = { run_id: runId, writes: 1 }
    expect(await endOrphanQueries(fake([{ kill_status: 'finished', query_id: statementQueryId(runId, 1) }]).ask, writes)).toBe(true)
    // nothing to kill: it may have finished, and written
    expect(await endOrphanQueries(fake([]).ask, writes)).toBe(false)
    // a later statement killed: the ones before it ran
    expect(await endOrphanQueries(fake([{ kill_status: 'finished', query_id: statementQueryId(runId, 2) }]).ask, writes)).toBe(false)
    // the kill did not end it
    expect(await endOrphanQueries(fake([{ kill_status: 'cant_cancel', query_id: statementQueryId(runId, 1) }]).ask, writes)).toBe(false)
  })

  it('asks again when ClickHouse answers the count with an error, and fails at once when it cannot be reached', async () => {
    const answers = ['Code: 202. DB::Exception: Too many simultaneous queries. (TOO_MANY_SIMULTANEOUS_QUERIES)\n', '1\n', '0\n']
    const busy = async (text: string) => (text.startsWith('KILL') ? '' : answers.shift()!)
    expect(await endOrphanQueries(busy, { run_id: runId })).toBe(true)
    expect(answers).toEqual([])
    const unreachable = async (text: string) => {
      if (text.startsWith('KILL')) return ''
      throw new Error('connect ECONNREFUSED 127.0.0.1:8123')
    }
    await expect(endOrphanQueries(unreachable, { run_id: runId })).rejects.toThrow('ECONNREFUSED')
  })
})
