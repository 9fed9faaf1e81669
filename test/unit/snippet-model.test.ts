import { describe, expect, it } from 'vitest'
import { fakeApi } from './fake-api.ts'
import {
  deleteSnippet, initialDialog, initialForm, isEditable, loadSnippet, pathOf, reduceDialog, reduceForm, saveSnippet, titleOf,
  type Api, type SnippetView,
} from '../../islands/lib/snippets/model.ts'
import { queryTexts } from '../../src/shared/query-texts.ts'

/** The snippet dialog's model; the dialog itself is tested in a browser (test/browser/snippets.test.ts). */
const t = queryTexts.snippets
const mine: SnippetView = { id: 4, trigger: 'top', description: 'd', snippet: 'LIMIT 10', user: { id: 1, name: 'Ann' } }
const theirs: SnippetView = { ...mine, id: 5, user: { id: 2, name: 'Bob' } }
const viewer = { id: 1, admin: false, canCreate: true }

describe('snippet dialog model', () => {
  it('lets the author, an admin, or a creator of new snippets edit; everyone else reads', () => {
    expect(isEditable(mine, viewer)).toBe(true)
    expect(isEditable(theirs, viewer)).toBe(false)
    expect(isEditable(theirs, { ...viewer, admin: true })).toBe(true)
    expect(isEditable('new', { ...viewer, canCreate: false })).toBe(false)
    expect(isEditable(null, viewer)).toBe(false)
    expect([titleOf('new', true), titleOf(mine, true), titleOf(theirs, false)]).toEqual([t.createTitle, t.editTitle, t.viewTitle])
  })

  it('checks trigger and snippet on save, focusing the first missing one, then follows the typing', () => {
    let step = reduceForm(initialForm(null), { type: 'change', key: 'snippet', value: 'SELECT 1' })
    expect(step.state.errors).toEqual({}) // no errors before the first attempt
    step = reduceForm(step.state, { type: 'submit', editable: true })
    expect(step.state.errors).toEqual({ trigger: t.required })
    expect(step.commands).toEqual([{ kind: 'focus', field: 'trigger' }])
    step = reduceForm(step.state, { type: 'change', key: 'trigger', value: '  ' })
    expect(step.state.errors).toEqual({ trigger: t.required }) // blank counts as empty
    step = reduceForm(step.state, { type: 'change', key: 'trigger', value: 'one' })
    expect(step.state.errors).toEqual({})
    step = reduceForm(step.state, { type: 'submit', editable: true })
    expect(step.commands).toEqual([{ kind: 'save', values: { trigger: 'one', description: '', snippet: 'SELECT 1' } }])
  })

  it('does not save a form the viewer may only read', () => {
    expect(reduceForm(initialForm(theirs), { type: 'submit', editable: false }).commands).toEqual([])
  })

  it('names the open snippet in the address and puts the list back on close', () => {
    let step = reduceDialog(initialDialog(null, '/query_snippets?page=2'), { type: 'show', snippet: mine, href: 'http://host/query_snippets/4?x=1' })
    expect(step.state).toMatchObject({ current: mine, openings: 1 })
    expect(step.commands).toEqual([{ kind: 'address', path: '/query_snippets/4?x=1' }])
    step = reduceDialog(step.state, { type: 'close' })
    expect(step.state.current).toBeNull()
    expect(step.commands).toEqual([{ kind: 'address', path: '/query_snippets?page=2' }])
    expect(pathOf('/query_snippets/new')).toBe('/query_snippets/new')
  })

  it('closes after a save, stays busy until the list is fresh, and keeps the server\'s reason when it fails', async () => {
    const open = { ...initialDialog(mine, '/query_snippets'), saving: true }
    const ok = fakeApi<Api>()
    const event = await saveSnippet(ok.call, mine, { trigger: ' top ', description: 'd', snippet: 'LIMIT 5' })
    expect(ok.calls).toEqual([['POST', '/api/query_snippets/4', { trigger: 'top', description: 'd', snippet: 'LIMIT 5' }]])
    const saved = reduceDialog(open, event)
    expect(saved.state).toMatchObject({ current: null, saving: true })
    expect(saved.commands).toEqual([{ kind: 'toast', message: t.saved }, { kind: 'address', path: '/query_snippets' }, { kind: 'refreshList', href: '/query_snippets' }])
    expect(reduceDialog(saved.state, { type: 'listRefreshed' }).state.saving).toBe(false)

    const taken = fakeApi<Api>(new Error('Trigger already taken'))
    await expect(saveSnippet(taken.call, null, { trigger: 'x', description: '', snippet: 'y' })).resolves.toEqual({ type: 'saveFailed', message: 'Trigger already taken' })
    expect(taken.calls[0].slice(0, 2)).toEqual(['POST', '/api/query_snippets'])
    const failed = reduceDialog(open, { type: 'saveFailed', message: 'Trigger already taken' })
    expect(failed.state).toMatchObject({ current: mine, saving: false, failure: 'Trigger already taken' })
    expect(failed.commands).toEqual([{ kind: 'toast', message: t.failedSaving, level: 'error' }])
  })

  it('deletes after confirmation, and on failure says so and leaves the dialog open', async () => {
    const confirming = reduceDialog(initialDialog(mine, '/query_snippets'), { type: 'confirmDelete' }).state
    expect(confirming.confirming).toBe(true)
    const deleted = reduceDialog(confirming, await deleteSnippet(fakeApi<Api>().call, mine))
    expect(deleted.state).toMatchObject({ current: null, confirming: false })
    expect(deleted.commands[0]).toEqual({ kind: 'toast', message: t.deleted })
    const refused = reduceDialog(confirming, await deleteSnippet(fakeApi<Api>(new Error('no')).call, mine))
    expect(refused.state).toMatchObject({ current: mine, confirming: false })
    expect(refused.commands).toEqual([{ kind: 'toast', message: t.failedDeleting, level: 'error' }])
  })

  it('loads a followed link\'s snippet, opens "new" without asking, and reports a failed load', async () => {
    const found = fakeApi<Api>(mine)
    expect(await loadSnippet(found.call, '4', '/query_snippets/4')).toEqual({ type: 'show', snippet: mine, href: '/query_snippets/4' })
    expect(found.calls).toEqual([['GET', '/api/query_snippets/4']])
    const none = fakeApi<Api>()
    expect(await loadSnippet(none.call, 'new', '/query_snippets/new')).toEqual({ type: 'show', snippet: 'new', href: '/query_snippets/new' })
    expect(none.calls).toEqual([])
    const gone = await loadSnippet(fakeApi<Api>(new Error('')).call, '9', '/query_snippets/9')
    expect(reduceDialog(initialDialog(null, '/q'), gone).commands).toEqual([{ kind: 'toast', message: t.failedLoading, level: 'error' }])
  })
})
