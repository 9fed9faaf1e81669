import { describe, expect, it } from 'vitest'
import { forkDashboard, initialHeader, menuActions, reduceHeader, refusalToast, sendChange, sendFavorite, type Api, type HeaderEvent, type HeaderState } from '../../islands/lib/dashboard/model.ts'
import type { HeaderDashboard } from '../../islands/lib/dashboard/types.ts'
import { dashboardTexts } from '../../src/shared/dashboard-texts.ts'
import { fakeApi } from './fake-api.ts'

/** The dashboard header's model; the header itself is tested in a browser (test/browser/dashboard-header.test.ts). */
const t = dashboardTexts.header
const board: HeaderDashboard = {
  id: 7, name: 'Sales', slug: 'sales', user: { id: 1, name: 'Ann', profile_image_url: '/a.png' }, tags: ['q1'],
  is_draft: false, is_archived: false, is_favorite: false, can_edit: true, dashboard_filters_enabled: false, version: 3,
}
const fresh = (d: Partial<HeaderDashboard> = {}) => initialHeader({ ...board, ...d }, { edit: false, fullscreen: false }, null)
const steps = (state: HeaderState, ...events: HeaderEvent[]) => events.reduce((s, e) => reduceHeader(s, e).state, state)
const everyRight = { mayManagePermissions: true, mayFork: true }

describe('dashboard header model', () => {
  it('offers editing, permissions, unpublishing, forking and archiving only to those who may, and the exports to all', () => {
    expect(menuActions(board, everyRight)).toEqual(['edit', 'permissions', 'unpublish', 'fork', 'exportPdf', 'exportPng', 'archive'])
    expect(menuActions({ ...board, is_draft: true }, everyRight)).not.toContain('unpublish')
    expect(menuActions({ ...board, is_archived: true }, everyRight)).toEqual(['fork', 'exportPdf', 'exportPng'])
    expect(menuActions({ ...board, can_edit: false }, { mayManagePermissions: false, mayFork: false })).toEqual(['exportPdf', 'exportPng'])
  })

  it('keeps edit mode and fullscreen in the address, and one dialog open at a time', () => {
    const editing = reduceHeader(fresh(), { type: 'edit', on: true })
    expect(editing).toEqual({ state: { ...fresh(), editing: true }, commands: [{ kind: 'address', flag: 'edit', on: true }] })
    const full = reduceHeader(fresh(), { type: 'toggleFullscreen' })
    expect(full.commands).toEqual([{ kind: 'address', flag: 'fullscreen', on: true }])
    expect(reduceHeader(full.state, { type: 'toggleFullscreen' }).commands).toEqual([{ kind: 'address', flag: 'fullscreen', on: false }])
    const shared = steps(fresh(), { type: 'openDialog', dialog: 'share' }, { type: 'shared', publicUrl: 'http://x/public/k' })
    expect(shared).toMatchObject({ dialog: 'share', publicUrl: 'http://x/public/k' })
    expect(steps(shared, { type: 'closeDialog' }).dialog).toBeNull()
  })

  it('sends each change with the version last seen, and takes the answer\'s', async () => {
    const settle = () => undefined
    const step = reduceHeader(fresh(), { type: 'change', changes: { name: 'Renamed' }, settle })
    expect(step.commands).toEqual([{ kind: 'change', method: 'POST', path: '/api/dashboards/7', body: { name: 'Renamed', version: 3 }, settle }])
    const answer = { ...board, name: 'Renamed', version: 4, widgets: [] } as HeaderDashboard
    const server = fakeApi<Api>(answer)
    const event = await sendChange(server.call, 'POST', '/api/dashboards/7', { name: 'Renamed', version: 3 }, () => ({ status: 0, reason: '' }))
    expect(server.calls).toEqual([['POST', '/api/dashboards/7', { name: 'Renamed', version: 3 }]])
    const next = reduceHeader(step.state, event).state
    expect(next.dashboard).toEqual({ ...board, name: 'Renamed', version: 4 }) // only the header's fields are kept
    expect(reduceHeader(next, { type: 'change', changes: { tags: [] } }).commands[0]).toMatchObject({ body: { tags: [], version: 4 } })
    expect(reduceHeader(next, { type: 'archive' }).commands).toEqual([{ kind: 'change', method: 'DELETE', path: '/api/dashboards/7', settle: undefined }])
  })

  it('tells a refusal as the spec words it: permission, a conflict that stays, else the server\'s reason', async () => {
    const refused = fakeApi<Api>(new Error('nope'))
    const event = await sendChange(refused.call, 'POST', '/api/dashboards/7', {}, () => ({ status: 409, reason: 'Version conflict' }))
    expect(event).toEqual({ type: 'refused', status: 409, reason: 'Version conflict' })
    expect(reduceHeader(fresh(), event)).toEqual({ state: fresh(), commands: [{ kind: 'toast', message: t.conflict, description: t.conflictHint, persistent: true }] })
    expect(refusalToast(403, 'x')).toEqual({ kind: 'toast', message: t.updateFailed, description: t.permissionDenied })
    expect(refusalToast(400, 'Name is too long')).toEqual({ kind: 'toast', message: t.updateFailed, description: 'Name is too long' })
    expect(refusalToast(0, '')).toEqual({ kind: 'toast', message: t.updateFailed, description: undefined })
  })

  it('marks a favourite at once and puts it back when the server refuses', async () => {
    const step = reduceHeader(fresh(), { type: 'favorite', on: true })
    expect(step.state.dashboard.is_favorite).toBe(true)
    expect(step.commands).toEqual([{ kind: 'favorite', method: 'POST', path: '/api/dashboards/7/favorite', on: true }])
    const ok = fakeApi<Api>(null)
    expect(await sendFavorite(ok.call, 'POST', '/api/dashboards/7/favorite', true)).toBeNull()
    expect(ok.calls).toEqual([['POST', '/api/dashboards/7/favorite']])
    const failed = await sendFavorite(fakeApi<Api>(new Error('down')).call, 'POST', '/x', true)
    expect(reduceHeader(step.state, failed!)).toEqual({ state: fresh(), commands: [{ kind: 'toast', message: t.favoriteFailed }] })
    expect(reduceHeader(fresh({ is_favorite: true }), { type: 'favorite', on: false }).commands[0]).toMatchObject({ method: 'DELETE' })
  })

  it('forks and opens the copy, whose page is told how many charts were left out; a failed fork says so', async () => {
    expect(reduceHeader(fresh(), { type: 'fork' }).commands).toEqual([{ kind: 'fork', path: '/api/dashboards/7/fork' }])
    const server = fakeApi<Api>({ id: 9, slug: 'copy-of-sales', skipped_widgets: 2 })
    const forked = await forkDashboard(server.call, '/api/dashboards/7/fork')
    expect(server.calls).toEqual([['POST', '/api/dashboards/7/fork']])
    expect(reduceHeader(fresh(), forked).commands).toEqual([
      { kind: 'flashForkSkipped', count: 2, path: '/dashboards/9-copy-of-sales' }, { kind: 'open', path: '/dashboards/9-copy-of-sales' },
    ])
    expect(reduceHeader(fresh(), { type: 'forked', copy: { id: 9, slug: 's' } }).commands).toEqual([{ kind: 'open', path: '/dashboards/9-s' }])
    const failed = await forkDashboard(fakeApi<Api>(new Error('no')).call, '/x')
    expect(reduceHeader(fresh(), failed).commands).toEqual([{ kind: 'toast', message: t.forkFailed }])
  })
})
