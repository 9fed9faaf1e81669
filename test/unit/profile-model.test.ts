import { describe, expect, it } from 'vitest'
import { fakeApi } from './fake-api.ts'
import {
  changePassword, checkAccount, copyApiKey, initialAccount, initialPassword, reduceAccount, reduceApiKey, reducePassword, regenerateApiKey,
  saveAccount, toggleGroup, type Api,
} from '../../islands/lib/profile/model.ts'
import { texts } from '../../src/shared/texts.ts'

/** The profile page's model; the page itself is tested in a browser (test/browser/profile.test.ts). */
const t = texts.profile
const user = { id: 3, name: 'Ann', email: 'ann@example.com', time_zone: null, groups: [{ id: 1, name: 'default' }] }

describe('profile model', () => {
  it('checks name, email and (for whoever edits them) groups, focusing the first problem', () => {
    expect(checkAccount({ name: ' ', email: 'nope', timeZone: '', groupIds: [] }, true)).toEqual({ name: t.required, email: t.invalidEmail, groups: t.required })
    expect(checkAccount({ name: 'A', email: '', timeZone: '', groupIds: [] }, false)).toEqual({ name: undefined, email: t.required, groups: undefined })
    let step = reduceAccount(initialAccount(user, true), { type: 'change', values: { email: 'bad' } })
    expect(step.state.errors).toEqual({}) // no errors before the first attempt
    step = reduceAccount(step.state, { type: 'submit' })
    expect(step.state.errors.email).toBe(t.invalidEmail)
    expect(step.commands).toEqual([{ kind: 'focus', field: 'email' }])
    step = reduceAccount(step.state, { type: 'change', values: { groupIds: toggleGroup(step.state.values.groupIds, 1, false) } })
    expect(step.state.errors).toMatchObject({ email: t.invalidEmail, groups: t.required })
    expect(step.commands).toEqual([])
  })

  it('saves trimmed values with the time zone and groups, then shows what the server kept', async () => {
    let step = reduceAccount(initialAccount(user, true), { type: 'change', values: { name: ' Ann B ', groupIds: toggleGroup([1], 7, true) } })
    step = reduceAccount(reduceAccount(step.state, { type: 'timeZone', value: 'Europe/Oslo' }).state, { type: 'submit' })
    expect(step.state.saving).toBe(true)
    expect(step.commands).toEqual([{ kind: 'save', body: { name: 'Ann B', email: 'ann@example.com', time_zone: 'Europe/Oslo', group_ids: [1, 7] } }])
    expect(reduceAccount(step.state, { type: 'submit' }).commands).toEqual([]) // no second save while one runs

    const account = { name: 'Ann B', email: 'ann@example.com', groups: [{ id: 1, name: 'default' }, { id: 7, name: 'x' }] }
    const api = fakeApi<Api>(account)
    const saved = reduceAccount(step.state, await saveAccount(api.call, 3, { name: 'Ann B' }))
    expect(api.calls).toEqual([['POST', '/api/users/3', { name: 'Ann B' }]])
    expect(saved.state).toMatchObject({ saving: false, values: { name: 'Ann B' } })
    expect(saved.commands).toEqual([{ kind: 'saved', account }, { kind: 'toast', message: t.saved }])

    const refused = reduceAccount(step.state, await saveAccount(fakeApi<Api>(new Error('Email taken')).call, 3, {}))
    expect(refused.commands).toEqual([{ kind: 'toast', message: 'Email taken', level: 'error' }])
    expect(reduceAccount(step.state, { type: 'failed', error: new Error('') }).commands[0]).toMatchObject({ message: t.failedSaving })
  })

  it('sends no groups for a viewer who may not change them', () => {
    const step = reduceAccount(initialAccount(user, false), { type: 'submit' })
    expect(step.commands).toEqual([{ kind: 'save', body: { name: 'Ann', email: 'ann@example.com', time_zone: null } }])
  })

  it('regenerates the API key after confirmation, and selects it when the clipboard is refused', async () => {
    const api = fakeApi<Api>({ api_key: 'new-key' })
    const confirming = reduceApiKey({ apiKey: 'old', confirming: false }, { type: 'confirm' }).state
    const done = reduceApiKey(confirming, await regenerateApiKey(api.call, 3))
    expect(api.calls).toEqual([['POST', '/api/users/3/regenerate_api_key']])
    expect(done).toEqual({ state: { apiKey: 'new-key', confirming: false }, commands: [{ kind: 'toast', message: t.apiKeyUpdated }] })
    const refused = reduceApiKey(confirming, await regenerateApiKey(fakeApi<Api>(new Error('no')).call, 3))
    expect(refused).toEqual({ state: { apiKey: 'old', confirming: false }, commands: [{ kind: 'toast', message: t.apiKeyFailed, level: 'error' }] })

    const copied: string[] = []
    const ok = await copyApiKey({ writeText: async (text) => void copied.push(text) }, 'old')
    expect(copied).toEqual(['old'])
    expect(reduceApiKey(confirming, ok).commands).toEqual([{ kind: 'toast', message: t.copied }])
    const blocked = await copyApiKey({ writeText: async () => { throw new Error('denied') } }, 'old')
    expect(reduceApiKey(confirming, blocked).commands).toEqual([{ kind: 'select' }, { kind: 'toast', message: t.copyFailed, level: 'warning' }])
  })

  it('changes the password once every field passes, then empties the form', async () => {
    let step = reducePassword(initialPassword(), { type: 'submit' })
    expect(step.state.errors).toMatchObject({ current: t.required, password: t.required })
    expect(step.commands).toEqual([{ kind: 'focus', field: 'current' }])
    for (const [key, value] of [['current', 'old'], ['password', 'long enough 1'], ['repeat', 'long enough 2']] as const) {
      step = reducePassword(step.state, { type: 'change', key, value })
    }
    expect(step.state.errors).toEqual({ current: undefined, repeat: "Passwords don't match" })
    step = reducePassword(reducePassword(step.state, { type: 'change', key: 'repeat', value: 'long enough 1' }).state, { type: 'submit' })
    expect(step.commands).toEqual([{ kind: 'save', body: { old_password: 'old', password: 'long enough 1' } }])
    const api = fakeApi<Api>()
    const saved = reducePassword(step.state, await changePassword(api.call, 3, { old_password: 'old', password: 'long enough 1' }))
    expect(api.calls).toEqual([['POST', '/api/users/3', { old_password: 'old', password: 'long enough 1' }]])
    expect(saved).toEqual({ state: initialPassword(), commands: [{ kind: 'toast', message: t.saved }] })
    const wrong = reducePassword(step.state, await changePassword(fakeApi<Api>(new Error('Incorrect current password')).call, 3, { old_password: 'x', password: 'y' }))
    expect(wrong.state).toMatchObject({ saving: false, values: { current: 'old' } })
    expect(wrong.commands).toEqual([{ kind: 'toast', message: 'Incorrect current password', level: 'error' }])
  })
})
