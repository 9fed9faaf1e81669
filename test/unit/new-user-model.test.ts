import { describe, expect, it } from 'vitest'
import { createUser, initialNewUser, LIST_PATH, PENDING_PATH, reduceNewUser, type Api, type NewUserEvent, type NewUserState } from '../../islands/lib/new-user/model.ts'
import { texts } from '../../src/shared/texts.ts'
import { fakeApi } from './fake-api.ts'

/** The create-user dialog's model; the dialog itself is tested in a browser (test/browser/user-admin.test.ts). */
const p = texts.profile
const t = texts.userActions
const steps = (state: NewUserState, ...events: NewUserEvent[]) => events.reduce((s, e) => reduceNewUser(s, e).state, state)
const typed = (name: string, email: string) => steps(initialNewUser(), { type: 'change', field: 'name', value: name }, { type: 'change', field: 'email', value: email })

describe('new user model', () => {
  it('asks for both fields and a valid email, focusing the first wrong one, and shows errors only from the first attempt on', () => {
    expect(typed('', 'x').errors).toEqual({}) // nothing shown while typing before an attempt
    const empty = reduceNewUser(initialNewUser(), { type: 'submit' })
    expect(empty.state).toMatchObject({ submitted: true, saving: false, errors: { name: p.required, email: p.required } })
    expect(empty.commands).toEqual([{ kind: 'focus', field: 'name' }])
    const badEmail = reduceNewUser(typed('Ann', 'ann@'), { type: 'submit' })
    expect(badEmail.state.errors).toEqual({ name: undefined, email: p.invalidEmail })
    expect(badEmail.commands).toEqual([{ kind: 'focus', field: 'email' }])
    // after an attempt the errors follow the typing
    expect(steps(badEmail.state, { type: 'change', field: 'email', value: 'ann@example.com' }).errors).toEqual({ name: undefined, email: undefined })
    expect(steps(empty.state, { type: 'change', field: 'name', value: '  ' }).errors.name).toBe(p.required)
  })

  it('creates the user with the fields trimmed, one request at a time', async () => {
    const step = reduceNewUser(typed('  Ann ', ' ann@example.com '), { type: 'submit' })
    expect(step.state).toMatchObject({ saving: true, failure: null })
    expect(step.commands).toEqual([{ kind: 'save', body: { name: 'Ann', email: 'ann@example.com' } }])
    expect(reduceNewUser(step.state, { type: 'submit' }).commands).toEqual([])
    expect(reduceNewUser(step.state, { type: 'close' })).toEqual({ state: step.state, commands: [] }) // stays open while saving

    const user = { id: 4, name: 'Ann', email: 'ann@example.com', invite_link: 'http://x/invite/t' }
    const server = fakeApi<Api>(user)
    const created = reduceNewUser(step.state, await createUser(server.call, { name: 'Ann', email: 'ann@example.com' }, () => ''))
    expect(server.calls).toEqual([['POST', '/api/users', { name: 'Ann', email: 'ann@example.com' }]])
    expect(created.state).toMatchObject({ saving: false, created: user })
    expect(reduceNewUser(created.state, { type: 'close' }).commands).toEqual([{ kind: 'open', path: PENDING_PATH }])
  })

  it('shows the server\'s reason inside the dialog, else its own words, and dismissing goes back to the list', async () => {
    const saving = reduceNewUser(typed('Ann', 'ann@example.com'), { type: 'submit' }).state
    const refused = fakeApi<Api>(new Error('Email already taken'))
    const failed = reduceNewUser(saving, await createUser(refused.call, { name: 'Ann', email: 'ann@example.com' }, (e) => (e as Error).message)).state
    expect(failed).toMatchObject({ saving: false, failure: 'Email already taken', created: null })
    expect(reduceNewUser(saving, { type: 'failed', reason: '' }).state.failure).toBe(t.failedSaving)
    expect(reduceNewUser(failed, { type: 'submit' }).state.failure).toBeNull() // a new attempt clears it
    const closed = reduceNewUser(failed, { type: 'close' })
    expect(closed).toEqual({ state: { ...failed, open: false }, commands: [{ kind: 'open', path: LIST_PATH }] })
  })
})
