import { describe, expect, it } from 'vitest'
import { derive, initialForm, reduceForm, saveAlert, subscriptionsBody, valuesShown, type Api, type FormState } from '../../islands/lib/alert-form/model.ts'
import type { QueryForAlert } from '../../islands/lib/alert/use-query-result.ts'
import { alertPageTexts as t } from '../../src/shared/alert-page-texts.ts'
import type { AlertFormJson } from '../../src/shared/api/alerts.ts'

/** The alert form's model; the form itself is tested in a browser (test/browser/alerts.test.ts, alert-evaluation.test.ts). */
const query: QueryForAlert = { id: 9, name: 'Signups', parameters: [], columns: ['day', 'count'], rows: [{ day: '2024-01-01', count: 3 }], noResult: false }
const withRegion: QueryForAlert = { ...query, parameters: [{ name: 'region', title: 'Region', type: 'text', value: 'EU' }] }
const stored = {
  id: 5, name: 'Too many', rearm: 3600, check_interval: null, state: 'ok', query: { id: 9, name: 'Signups' },
  options: { column: 'count', op: '>=', value: 10, selector: 'max', muted: true, custom_subject: 'Hi', extra: 'kept' },
} as unknown as AlertFormJson

const edit = (state: FormState, change: Parameters<typeof reduceForm>[1] & { type: 'edit' }) => reduceForm(state, change).state

describe('alert form model', () => {
  it('starts a new alert empty with the defaults, and an edited one from what is stored', () => {
    const fresh = initialForm(null)
    expect(fresh).toMatchObject({ name: '', queryId: null, criteria: { column: '', op: '>', value: '1', selector: 'first' }, checkMinutes: '60' })
    expect(derive(fresh, null).ready).toBe(false) // Create Alert waits for a query
    const editing = initialForm(stored)
    expect(editing).toMatchObject({ queryId: 9, criteria: { column: 'count', op: '>=', value: '10', selector: 'max' }, template: { custom: true, subject: 'Hi', body: '' } })
    expect(derive(editing, query).ready).toBe(true)
    expect(derive(editing, null).ready).toBe(false) // nor while its result loads
  })

  it('keeps the value column when the new result has it, else takes the first; a failed load clears the query', () => {
    const state = reduceForm(initialForm(stored), { type: 'queryLoaded', columns: ['count', 'x'] }).state
    expect(state.criteria.column).toBe('count')
    expect(reduceForm(state, { type: 'queryLoaded', columns: ['total'] }).state.criteria.column).toBe('total')
    expect(reduceForm(state, { type: 'queryLoaded', columns: [] }).state.criteria.column).toBe('count')
    const failed = reduceForm(state, { type: 'queryFailed' })
    expect(failed.state.queryId).toBeNull()
    expect(failed.commands).toEqual([{ kind: 'toast', message: t.somethingWrong, description: t.couldNotSelectQuery }])
  })

  it('shows the query\'s saved parameter values until the alert names its own, and asks for a valid check interval then', () => {
    expect(valuesShown(withRegion.parameters, null)).toEqual({ region: 'EU' })
    let state = reduceForm(initialForm(null), { type: 'chooseQuery', id: 9 }).state
    state = reduceForm(state, { type: 'queryLoaded', columns: query.columns }).state
    expect(derive(state, withRegion)).toMatchObject({ withParameters: true, ready: true })
    state = edit(state, { type: 'edit', change: { checkMinutes: '0' } })
    expect(derive(state, withRegion)).toMatchObject({ checkValid: false, ready: false })
    expect(derive(state, query).ready).toBe(true) // no parameters, no interval to check
  })

  it('creates with the options, parameters typed but not applied, the interval and who is told', () => {
    let state = reduceForm(initialForm(null), { type: 'chooseQuery', id: 9 }).state
    state = reduceForm(state, { type: 'queryLoaded', columns: query.columns }).state
    state = edit(state, { type: 'edit', change: { name: '  Big day ', checkMinutes: '15', subscriptions: { me: true, destinations: [4] } } })
    const step = reduceForm(state, { type: 'submit', query: withRegion, pending: { region: 'US' } })
    expect(step.state).toMatchObject({ saving: true, parameters: { region: 'US' } })
    expect(step.commands).toEqual([{ kind: 'save', path: '/api/alerts', body: {
      name: 'Big day', query_id: 9, rearm: 0, check_interval: 900, subscriptions: [{ destination_id: 4 }, {}],
      options: { column: 'day', op: '>', value: 1, selector: 'first', muted: false, custom_subject: null, custom_body: null, parameters: { region: 'US' } },
    } }])
    expect(reduceForm(step.state, { type: 'submit', query: withRegion, pending: null }).commands).toEqual([]) // one save at a time
    expect(subscriptionsBody({ me: false, destinations: [] })).toEqual([])
  })

  it('saves an edited alert keeping its other options, without subscriptions, and opens its page', async () => {
    const step = reduceForm(initialForm(stored), { type: 'submit', query, pending: null })
    const save = step.commands[0]
    expect(save).toMatchObject({ kind: 'save', path: '/api/alerts/5', body: { rearm: 3600, check_interval: null, options: { extra: 'kept', muted: true, custom_subject: 'Hi', parameters: null } } })
    expect(save.kind === 'save' && 'subscriptions' in save.body).toBe(false)

    const calls: unknown[][] = []
    const ok = (async (...args: unknown[]) => { calls.push(args); return { id: 5 } }) as Api
    const saved = reduceForm(step.state, await saveAlert(ok, '/api/alerts/5', { name: 'x' }, () => ''))
    expect(calls).toEqual([['POST', '/api/alerts/5', { name: 'x' }]])
    expect(saved).toEqual({ state: step.state, commands: [{ kind: 'open', path: '/alerts/5' }] }) // stays busy while the page loads

    const refused = (async () => { throw new Error('Query not found') }) as Api
    const failed = reduceForm(step.state, await saveAlert(refused, '/api/alerts/5', {}, (e) => (e as Error).message))
    expect(failed.state.saving).toBe(false)
    expect(failed.commands).toEqual([{ kind: 'toast', message: t.failedSaving, description: 'Query not found' }])
    expect(reduceForm(step.state, { type: 'saveFailed', reason: '' }).commands).toEqual([{ kind: 'toast', message: t.failedSaving, description: undefined }])
  })
})
