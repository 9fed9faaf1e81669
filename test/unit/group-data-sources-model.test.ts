import { describe, expect, it } from 'vitest'
import {
  addSource, candidates, initialGroupSources, reduceGroupSources, removeSource, saveAccess,
  type Api, type GroupSourcesEvent, type GroupSourcesState,
} from '../../islands/lib/group-data-sources/model.ts'
import { texts } from '../../src/shared/texts.ts'
import { fakeApi } from './fake-api.ts'

/** A group's data sources; the island itself is tested in a browser (test/browser/groups.test.ts). */
const t = texts.groups
const pg = { id: 1, name: 'pg', type: 'pg', view_only: false }
const Mysql = { id: 2, name: 'Mysql', type: 'mysql', view_only: true }
const all = [{ id: 3, name: 'zeta', type: 'pg' }, pg, Mysql, { id: 4, name: 'Alpha', type: 'pg' }]
const start = () => initialGroupSources(7, [pg, Mysql], all)
const steps = (state: GroupSourcesState, ...events: GroupSourcesEvent[]) => events.reduce((s, e) => reduceGroupSources(s, e).state, state)

describe('group data sources model', () => {
  it('lists the members by name, case aside, and offers only the data sources not in the group', () => {
    expect(start().members.map((m) => m.name)).toEqual(['Mysql', 'pg'])
    expect(candidates(start()).map((s) => s.id)).toEqual([4, 3])
    expect(steps(start(), { type: 'openAdd' }).adding).toBe(true)
    expect(steps(start(), { type: 'openAdd' }, { type: 'closeAdd' }).adding).toBe(false)
  })

  it('adds the picks one request at a time, each shown once in, and closes the dialog after the last', async () => {
    const opened = steps(start(), { type: 'openAdd' })
    const first = reduceGroupSources(opened, { type: 'add', ids: [3, 4] })
    expect(first.commands).toEqual([{ kind: 'add', groupId: 7, id: 3 }])
    expect(reduceGroupSources(first.state, { type: 'add', ids: [4] }).commands).toEqual([]) // one add at a time

    const server = fakeApi<Api>({ id: 3, name: 'zeta', type: 'pg', view_only: false, extra: 'dropped' })
    const added = reduceGroupSources(first.state, await addSource(server.call, 7, 3, () => ''))
    expect(server.calls).toEqual([['POST', '/api/groups/7/data_sources', { data_source_id: 3 }]])
    expect(added.state.members.map((m) => m.id)).toEqual([2, 1, 3])
    expect(added.state.members[2]).toEqual({ id: 3, name: 'zeta', type: 'pg', view_only: false })
    expect(added.state.adding).toBe(true)
    expect(added.commands).toEqual([{ kind: 'add', groupId: 7, id: 4 }])

    const last = reduceGroupSources(added.state, { type: 'added', member: { id: 4, name: 'Alpha', type: 'pg', view_only: true } })
    expect(last.state.members.map((m) => m.name)).toEqual(['Alpha', 'Mysql', 'pg', 'zeta'])
    expect(last.state).toMatchObject({ adding: false, queue: [] })
    expect(last.commands).toEqual([])
    expect(reduceGroupSources(opened, { type: 'add', ids: [] }).state.adding).toBe(false)
  })

  it('stops adding at the first refusal, saying why, and keeps the dialog open', async () => {
    const adding = steps(start(), { type: 'openAdd' }, { type: 'add', ids: [3, 4] })
    const refused = fakeApi<Api>(new Error('Already a member'))
    const failed = reduceGroupSources(adding, await addSource(refused.call, 7, 3, (e) => (e as Error).message))
    expect(failed.state).toMatchObject({ adding: true, queue: [] })
    expect(failed.state.members).toEqual(adding.members)
    expect(failed.commands).toEqual([{ kind: 'toast', message: 'Already a member' }])
    expect(reduceGroupSources(adding, { type: 'addFailed', reason: '' }).commands).toEqual([{ kind: 'toast', message: t.failedAdd }])
  })

  it('shows a new access level at once, sends it, and puts the old one back when refused', async () => {
    const changed = reduceGroupSources(start(), { type: 'setAccess', id: 1, viewOnly: true })
    expect(changed.state.members.find((m) => m.id === 1)?.view_only).toBe(true)
    expect(changed.state.busy).toEqual([1])
    expect(changed.commands).toEqual([{ kind: 'setAccess', groupId: 7, id: 1, viewOnly: true, before: false }])
    expect(reduceGroupSources(changed.state, { type: 'remove', id: 1 }).commands).toEqual([]) // the row waits

    const server = fakeApi<Api>()
    const command = changed.commands[0] as Parameters<typeof saveAccess>[1]
    const saved = reduceGroupSources(changed.state, await saveAccess(server.call, command))
    expect(server.calls).toEqual([['POST', '/api/groups/7/data_sources/1', { view_only: true }]])
    expect(saved).toEqual({ state: { ...changed.state, busy: [] }, commands: [] })

    const refused = reduceGroupSources(changed.state, await saveAccess(fakeApi<Api>(new Error('no')).call, command))
    expect(refused.state.members.find((m) => m.id === 1)?.view_only).toBe(false)
    expect(refused.state.busy).toEqual([])
    expect(refused.commands).toEqual([{ kind: 'toast', message: t.failedPermissions }])
  })

  it('removes a data source once the server has, and keeps it when refused', async () => {
    const removing = reduceGroupSources(start(), { type: 'remove', id: 2 })
    expect(removing.state.busy).toEqual([2])
    expect(removing.commands).toEqual([{ kind: 'remove', groupId: 7, id: 2 }])
    expect(removing.state.members).toHaveLength(2)

    const server = fakeApi<Api>()
    const removed = reduceGroupSources(removing.state, await removeSource(server.call, 7, 2))
    expect(server.calls).toEqual([['DELETE', '/api/groups/7/data_sources/2']])
    expect(removed.state.members.map((m) => m.id)).toEqual([1])
    expect(candidates(removed.state).map((s) => s.id)).toEqual([4, 2, 3])

    const refused = reduceGroupSources(removing.state, await removeSource(fakeApi<Api>(new Error('no')).call, 7, 2))
    expect(refused.state).toEqual({ ...removing.state, busy: [] })
    expect(refused.commands).toEqual([{ kind: 'toast', message: t.failedRemove }])
  })
})
