import { describe, expect, it } from 'vitest'
import { initialImport, isActive, readRun, reduceImport, startImport, type Api, type ImportEvent, type ImportState } from '../../islands/lib/import/model.ts'
import type { ImportRunJson, InstanceRunJson } from '../../src/shared/import-summary.ts'
import { fakeApi } from './fake-api.ts'

/** The import page's model; the page itself is tested in a browser (test/browser/import.test.ts). */
const base = { dry_run: false, keep_ids: false, origin_version: null, progress: {}, error: null, created_at: '2026-11-01T00:00:00Z', finished_at: null }
const instanceRun = (id: number, status: InstanceRunJson['status'], from_url = 'https://old.example.com'): InstanceRunJson =>
  ({ ...base, id, from_url, status, kind: 'instance', report: {} })
const filesRun: ImportRunJson = { ...base, id: 9, from_url: null, status: 'done', kind: 'files', report: { kinds: {} } } as ImportRunJson
const steps = (state: ImportState, ...events: ImportEvent[]) => events.reduce((s, e) => reduceImport(s, e).state, state)
const filled = (state = initialImport([])) => steps(state,
  { type: 'type', field: 'fromUrl', value: 'https://redash.example.com' }, { type: 'type', field: 'apiKey', value: 'k1' },
  { type: 'check', field: 'dryRun', value: true })

describe('import model', () => {
  it('follows the latest import from an instance and starts from its address; with none, from nothing', () => {
    const followed = initialImport([filesRun, instanceRun(5, 'done', 'https://a.example.com'), instanceRun(3, 'failed')])
    expect(followed).toMatchObject({ run: { id: 5 }, fromUrl: 'https://a.example.com', apiKey: '', dryRun: false, keepIds: false, busy: false, error: '' })
    expect(initialImport([filesRun])).toMatchObject({ run: null, fromUrl: '' })
  })

  it('sends what the form says, once, and forgets the key once the run has started', async () => {
    const step = reduceImport(filled(), { type: 'submit' })
    const body = { from_url: 'https://redash.example.com', api_key: 'k1', dry_run: true, keep_ids: false }
    expect(step.state).toMatchObject({ busy: true, error: '' })
    expect(step.commands).toEqual([{ kind: 'start', body }])
    expect(reduceImport(step.state, { type: 'submit' }).commands).toEqual([]) // one start at a time

    const server = fakeApi<Api>(instanceRun(7, 'queued', 'https://redash.example.com'))
    const started = reduceImport(step.state, await startImport(server.call, body, () => '')).state
    expect(server.calls).toEqual([['POST', '/api/imports', body]])
    expect(started).toMatchObject({ busy: false, apiKey: '', fromUrl: 'https://redash.example.com', dryRun: true, run: { id: 7, status: 'queued' } })
  })

  it('starts nothing while the followed run is still queued or running', () => {
    const running = filled(initialImport([instanceRun(4, 'running')]))
    expect(isActive(running.run)).toBe(true)
    expect(reduceImport(running, { type: 'submit' })).toEqual({ state: running, commands: [] })
    const ended = steps(running, { type: 'read', run: instanceRun(4, 'done') })
    expect(isActive(ended.run)).toBe(false)
    expect(reduceImport(ended, { type: 'submit' }).commands).toHaveLength(1)
  })

  it('shows the server\'s refusal, else what went wrong, and keeps the key for another try', async () => {
    const state = reduceImport(filled(), { type: 'submit' }).state
    const refused = fakeApi<Api>(new Error('Could not reach the instance'))
    const failed = reduceImport(state, await startImport(refused.call, { from_url: '', api_key: '', dry_run: false, keep_ids: false }, () => 'API key rejected')).state
    expect(failed).toMatchObject({ busy: false, error: 'API key rejected', apiKey: 'k1', run: null })
    const unexplained = await startImport(refused.call, { from_url: '', api_key: '', dry_run: false, keep_ids: false }, () => '')
    expect(unexplained).toEqual({ type: 'refused', reason: 'Error: Could not reach the instance' })
    expect(reduceImport(failed, { type: 'submit' }).state.error).toBe('') // a new attempt clears it
  })

  it('reads the followed run again, and after a failed read keeps it as a new value so the next read is scheduled', async () => {
    const state = initialImport([instanceRun(4, 'running')])
    const server = fakeApi<Api>(instanceRun(4, 'done'))
    const read = reduceImport(state, await readRun(server.call, 4)).state
    expect(server.calls).toEqual([['GET', '/api/imports/4']])
    expect(read.run?.status).toBe('done')

    const down = fakeApi<Api>(new Error('502'))
    const event = await readRun(down.call, 4)
    expect(event).toEqual({ type: 'readFailed' })
    const after = reduceImport(state, event).state
    expect(after.run).toEqual(state.run)
    expect(after.run).not.toBe(state.run)
  })
})
