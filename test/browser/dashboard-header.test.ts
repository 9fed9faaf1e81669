import { describe, expect, it } from 'vitest'
import { dashboardFixture, more, type BoardJson } from './dashboard-fixture.ts'
import { layoutProblems, seriousA11yViolations } from './page-checks.ts'
import { DESKTOP, MEMBER, PHONE, settled, waitForIslands, warehouseOptions } from './support.ts'

/**
 * The dashboard page's header in a real browser: every control of its owner (rename, publish, favourite, tags,
 * archive, fork, refresh, fullscreen), a member who may not edit getting none of it until granted, and how edit mode
 * reads and fits on a desk and on a phone.
 */
const { suite, board, member: memberSession } = dashboardFixture()
const { open, api } = suite

describe('the header', () => {
  it('renames in place, publishes and unpublishes, favourites, tags, archives and unarchives, and forks', async () => {
    const b = await board('Header board', { draft: true })
    const { page, problems } = await open(`${b.path}?edit`)
    await page.getByRole('heading', { level: 1 }).getByRole('button', { name: 'Header board' }).click()
    await page.getByRole('textbox', { name: 'Dashboard name' }).fill('Renamed board')
    await page.getByRole('textbox', { name: 'Dashboard name' }).press('Enter')
    await page.getByRole('heading', { level: 1, name: 'Renamed board' }).waitFor()
    await page.getByRole('button', { name: 'Done Editing' }).click()

    const mark = page.locator('[data-dashboard-header]').getByText('Unpublished', { exact: true })
    await page.getByRole('button', { name: 'Publish' }).click()
    await mark.waitFor({ state: 'detached' })
    await more(page)
    await page.getByRole('menuitem', { name: 'Unpublish' }).click()
    await mark.waitFor()
    await page.getByRole('button', { name: 'Publish' }).click()
    await mark.waitFor({ state: 'detached' })

    await page.getByRole('button', { name: 'Favorite' }).click()
    await page.getByRole('button', { name: 'Favorite', pressed: true }).waitFor()

    // the dialog suggests the tags other dashboards carry, not the queries'
    const tagged = await api<{ id: number }>('POST', '/api/dashboards', { name: 'Tagged elsewhere' })
    await api('POST', `/api/dashboards/${tagged.id}`, { is_draft: false, tags: ['finance'] })
    await page.getByRole('button', { name: '+ Add tags' }).click()
    const tags = page.getByRole('dialog', { name: 'Add/Edit Tags' })
    await tags.getByRole('button', { name: '+ finance' }).waitFor()
    await tags.getByLabel('Tags').fill('ops, weekly, ops')
    await tags.getByRole('button', { name: 'Save' }).click()
    await page.getByRole('list', { name: 'Tags' }).getByRole('link', { name: 'weekly' }).waitFor()

    const saved = await api<BoardJson>('GET', `/api/dashboards/${b.id}`)
    expect(saved).toMatchObject({ name: 'Renamed board', is_draft: false, tags: ['ops', 'weekly'] })
    const favorites = await api<{ results: { id: number }[] }>('GET', '/api/dashboards/favorites')
    expect(favorites.results.map((d) => d.id)).toContain(b.id)

    await more(page)
    await page.getByRole('menuitem', { name: 'Archive' }).click()
    await page.getByRole('alertdialog', { name: 'Archive Dashboard' }).getByRole('button', { name: 'Archive' }).click()
    await page.locator('[data-dashboard-header]').getByText('Archived', { exact: true }).waitFor()
    expect((await api<BoardJson>('GET', `/api/dashboards/${b.id}`)).is_archived).toBe(true)
    await page.getByRole('button', { name: 'Unarchive' }).click()
    await page.locator('[data-dashboard-header]').getByText('Archived', { exact: true }).waitFor({ state: 'detached' })
    expect((await api<BoardJson>('GET', `/api/dashboards/${b.id}`)).is_archived).toBe(false)

    await more(page)
    await page.getByRole('menuitem', { name: 'Fork' }).click()
    await page.waitForURL(/\/dashboards\/\d+-copy-of-/)
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe(`Copy of (#${b.id}) Renamed board`)
    expect(problems).toEqual([])
  })

  it('forks for a member without the charts they may not see, and the copy says how many were left out', async () => {
    const b = await board('Vault board')
    const vault = (await api<{ id: number }>('POST', '/api/data_sources', { name: 'Vault', type: 'pg', options: warehouseOptions(suite.server) })).id
    const groups = await api<{ id: number; name: string }[]>('GET', '/api/groups')
    await api('DELETE', `/api/groups/${groups.find((g) => g.name === 'default')!.id}/data_sources/${vault}`)
    const secret = await api<{ visualizations: { id: number }[] }>('POST', '/api/queries', { data_source_id: vault, name: 'Vault rows', query: 'select 1' })
    await api('POST', '/api/widgets', { dashboard_id: b.id, visualization_id: secret.visualizations[0].id, options: { position: { col: 4, row: 0, sizeX: 2, sizeY: 5 } } })
    const { page, problems } = await open(b.path, { as: memberSession() })
    await more(page)
    await page.getByRole('menuitem', { name: 'Fork' }).click()
    await page.waitForURL(/\/dashboards\/\d+-copy-of-/)
    await page.getByRole('status').getByText("1 widget was left out of the copy: its query uses a data source you don't have access to.").waitFor()
    expect(await page.locator('[data-widget-id]').count()).toBe(2)
    // said once: the next visit of the copy has no notice
    await page.reload()
    await waitForIslands(page)
    expect(await page.getByText('left out of the copy').count()).toBe(0)
    expect(problems).toEqual([])
  })

  it('refreshes on demand and on the chosen interval, kept in the address, and goes fullscreen', async () => {
    const b = await board('Wall board')
    const opened = await suite.newPage()
    const { page } = opened
    // the page's clock moves only when told, so "every minute" is the page's own count
    await page.clock.install()
    await page.goto(`${suite.server.url}${b.path}?refresh=10`)
    await waitForIslands(page)
    // below the shortest interval offered: the address says what actually runs
    await page.waitForURL((url) => url.searchParams.get('refresh') === '60')
    await page.evaluate(() => {
      const seen: number[] = ((window as unknown as { refreshes: number[] }).refreshes = [])
      window.addEventListener('sightline:dashboard-refresh', (e) => seen.push((e as CustomEvent<{ maxAge: number }>).detail.maxAge))
    })
    const refreshes = () => page.evaluate(() => (window as unknown as { refreshes: number[] }).refreshes)
    await page.getByRole('button', { name: 'Refresh, auto-refreshing every 1 minute', exact: true }).click()
    expect(await refreshes()).toEqual([0])

    await page.getByRole('button', { name: 'Auto-refresh', exact: true }).click()
    await page.getByRole('menuitemradio', { name: 'Every 5 minutes' }).click()
    await page.waitForURL((url) => url.searchParams.get('refresh') === '300')
    await page.clock.runFor(299_000)
    expect(await refreshes()).toEqual([0])
    await page.clock.runFor(1_000)
    expect(await refreshes()).toEqual([0, 300])

    await page.getByRole('button', { name: 'Auto-refresh', exact: true }).click()
    await page.getByRole('menuitemradio', { name: 'Off' }).click()
    await page.waitForURL((url) => !url.searchParams.has('refresh'))
    await page.clock.runFor(600_000)
    expect(await refreshes()).toEqual([0, 300])

    expect(await page.getByRole('navigation', { name: 'Main' }).isVisible()).toBe(true)
    await page.getByRole('button', { name: 'Fullscreen' }).click()
    await page.waitForURL((url) => url.searchParams.has('fullscreen'))
    await page.getByRole('navigation', { name: 'Main' }).waitFor({ state: 'hidden' })
  })
})

describe('rights', () => {
  it('a member who may not edit sees no editing controls and gets no edit mode from the address', async () => {
    const b = await board('Read-only board', { draft: true })
    await api('POST', `/api/dashboards/${b.id}`, { is_draft: false })
    const { page } = await open(`${b.path}?edit`, { as: memberSession() })
    await settled(page)
    for (const name of ['Publish', 'Done Editing', 'Add Widget', '+ Add tags']) expect(await page.getByRole('button', { name }).count()).toBe(0)
    expect(await page.locator('[data-dashboard-edit]').count()).toBe(0)
    await more(page)
    const items = await page.getByRole('menuitem').allTextContents()
    expect(items).not.toContain('Edit')
    expect(items).not.toContain('Archive')
    expect(items).not.toContain('Manage Permissions')
  })

  it('Manage Permissions grants a member, who then can edit', async () => {
    await api('POST', '/api/settings/organization', { feature_show_permissions_control: true })
    const b = await board('Shared board')
    const { page } = await open(b.path)
    await more(page)
    await page.getByRole('menuitem', { name: 'Manage Permissions' }).click()
    const dialog = page.getByRole('dialog', { name: 'Manage Permissions' })
    await dialog.getByText('Owner').waitFor()
    await dialog.getByLabel('Add a user').fill('Max')
    await dialog.getByRole('button', { name: `Add ${MEMBER.name}` }).click()
    await dialog.getByRole('button', { name: `Remove ${MEMBER.name}` }).waitFor()

    const asMember = await open(b.path, { as: memberSession() })
    await more(asMember.page)
    await asMember.page.getByRole('menuitem', { name: 'Edit' }).click()
    await asMember.page.locator(`[data-edit-widget="${b.chart}"]`).waitFor()
    await api('POST', '/api/settings/organization', { feature_show_permissions_control: false })
  })
})

describe('looks', () => {
  it('edit mode reads well and fits, on a desk and on a phone', async () => {
    const b = await board('Looks board')
    const desk = await open(`${b.path}?edit`, { viewport: DESKTOP })
    await desk.page.locator(`[data-edit-widget="${b.chart}"]`).waitFor()
    expect(await seriousA11yViolations(desk.page)).toEqual([])
    expect(await layoutProblems(desk.page, { scope: 'main *', skip: '[data-widget-id] *, .react-grid-item' })).toEqual([])

    const phone = await open(`${b.path}?edit`, { viewport: PHONE })
    await phone.page.locator(`[data-edit-widget="${b.text}"]`).waitFor()
    const boxes = await phone.page.locator('[data-edit-widget]').evaluateAll((els) => els.map((el) => el.getBoundingClientRect().toJSON()))
    // one column: each widget below the one before, as wide as the page allows
    expect(boxes[1].top).toBeGreaterThan(boxes[0].bottom - 1)
    expect(Math.abs(boxes[0].width - boxes[1].width)).toBeLessThan(2)
    expect(await seriousA11yViolations(phone.page)).toEqual([])
    // the grid animates its items to the width it measured: the layout is checked once they have come to rest
    await expect.poll(() => layoutProblems(phone.page, { scope: 'main *', skip: '[data-widget-id] *, .react-grid-item' })).toEqual([])
  })

  it('the view page loads no edit-mode code', async () => {
    const b = await board('Light board')
    const { page, scripts } = await open(b.path)
    await settled(page)
    expect(scripts.some((s) => /EditMode|react-grid/i.test(s))).toBe(false)
  })
})
