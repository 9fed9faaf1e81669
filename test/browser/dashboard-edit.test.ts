import type { Page } from 'playwright-core'
import { describe, expect, it } from 'vitest'
import { dashboardFixture, drag, more, saveStatus, type BoardJson } from './dashboard-fixture.ts'
import { animationsDone, MEMBER, toastWith, waitForIslands } from './support.ts'

/**
 * The dashboard's edit mode in a real browser: the owner arranges widgets on the grid (dragged and resized with the
 * mouse, saved after the pause, kept across a reload), adds text boxes and charts, removes one, and sees how each
 * save went. The header's controls and who may edit are in dashboard-header.test.ts.
 */
const { suite, board, positions, member: memberSession } = dashboardFixture()
const { open, api } = suite

describe('edit mode', () => {
  it('drags a widget to another column and resizes one, saves after the pause and keeps the layout', async () => {
    const b = await board('Arranged board')
    // the page's own clock, so the save's 2 s pause is counted, not waited for
    const { page, problems } = await open(b.path, { prepare: (context) => context.clock.install() })
    await more(page)
    await page.getByRole('menuitem', { name: 'Edit' }).click()
    expect(new URL(page.url()).searchParams.has('edit')).toBe(true)
    const chart = page.locator(`[data-edit-widget="${b.chart}"]`)
    const text = page.locator(`[data-edit-widget="${b.text}"]`)
    await text.waitFor()
    await saveStatus(page).getByText('Saved').waitFor()
    // the grid slides widgets to their places (a CSS transition): boxes are read where they come to rest
    await animationsDone(page)
    const [chartBox, textBox] = [(await chart.boundingBox())!, (await text.boundingBox())!]
    const column = (textBox.x - chartBox.x) / 2 // two columns apart

    // the text box two columns to the right
    await drag(page, { x: textBox.x + textBox.width / 2, y: textBox.y + textBox.height / 2 }, 2 * column, 0)
    await saveStatus(page).getByText('Saving').waitFor()
    await page.clock.runFor(2_000)
    await saveStatus(page).getByText('Saved').waitFor()
    // the chart one column wider and two rows (50 px each) taller, by its corner
    await animationsDone(page)
    const handle = chart.locator('.react-resizable-handle')
    const corner = (await handle.boundingBox())!
    await drag(page, { x: corner.x + corner.width / 2, y: corner.y + corner.height / 2 }, column, 100)
    await saveStatus(page).getByText('Saving').waitFor()
    await page.clock.runFor(2_000)
    await saveStatus(page).getByText('Saved').waitFor()

    const saved = await positions(b.id)
    expect(saved.get(b.text)).toMatchObject({ col: 4, row: 0, sizeX: 2, sizeY: 5 })
    expect(saved.get(b.chart)).toMatchObject({ col: 0, row: 0, sizeX: 3, sizeY: 7 })

    await page.getByRole('button', { name: 'Done Editing' }).click()
    await page.waitForURL((url) => !url.searchParams.has('edit'))
    expect(await page.locator('[data-dashboard-edit]').count()).toBe(0)
    await page.reload()
    await waitForIslands(page)
    const after = await page.locator('[data-widget-id]').evaluateAll((els) => els.map((el) => el.getBoundingClientRect().toJSON()))
    // the chart three columns wide at the left, the text box in the last two columns
    expect(after[1].left).toBeGreaterThan(after[0].right + column / 2)
    expect(after[0].height).toBeGreaterThan(7 * 50 - 20)
    expect(problems).toEqual([])
  })

  it('adds a text box with a preview, adds a chart found by searching, and deletes a widget after confirming', async () => {
    const created = await api<{ id: number; slug: string }>('POST', '/api/dashboards', { name: 'Built board' })
    const { page, problems } = await open(`/dashboards/${created.id}-${created.slug}?edit`)
    // the box ticks at once, and the setting is saved meanwhile
    await page.getByRole('checkbox', { name: 'Use Dashboard Level Filters' }).click()
    expect(await page.getByRole('checkbox', { name: 'Use Dashboard Level Filters' }).isChecked()).toBe(true)
    await expect.poll(async () => (await api<{ dashboard_filters_enabled: boolean }>('GET', `/api/dashboards/${created.id}`)).dashboard_filters_enabled).toBe(true)
    await page.getByRole('button', { name: 'Add Textbox' }).click()
    const textDialog = page.getByRole('dialog', { name: 'Add Textbox' })
    await textDialog.getByLabel('Text').fill('## Weekly *figures*')
    await textDialog.locator('[data-textbox-preview] h2', { hasText: 'Weekly figures' }).waitFor()
    await textDialog.getByRole('button', { name: 'Save' }).click()
    await toastWith(page, 'Widget added to dashboard').waitFor()
    await page.locator('[data-edit-widget] h2', { hasText: 'Weekly figures' }).waitFor()

    await page.getByRole('button', { name: 'Add Widget' }).click()
    const widgetDialog = page.getByRole('dialog', { name: 'Add Widget' })
    await widgetDialog.getByPlaceholder('Search Queries...').fill('Orders')
    expect(await widgetDialog.getByRole('button', { name: /Orders draft/ }).isDisabled()).toBe(true)
    await widgetDialog.getByRole('button', { name: 'Orders by region' }).click()
    await widgetDialog.getByLabel('Choose Visualization').selectOption({ label: 'Bars' })
    await widgetDialog.getByRole('button', { name: 'Add to Dashboard' }).click()
    await toastWith(page, 'Widget added to dashboard').waitFor()
    await page.locator('[data-edit-widget]').nth(1).waitFor()
    const widgets = (await api<BoardJson>('GET', `/api/dashboards/${created.id}`)).widgets
    expect(widgets).toHaveLength(2)
    // the lowest free position: the half-width chart went beside the half-width text box, not below it
    expect(widgets[0].options.position).toMatchObject({ col: 0, row: 0, sizeX: 3 })
    expect(widgets[1].options.position).toMatchObject({ col: 3, row: 0, sizeX: 3 })
    // measured until the grid has moved it there: its widgets slide to their places (a CSS transition)
    const beside = async () => {
      const [textBox, chartBox] = await Promise.all([0, 1].map((i) => page.locator('[data-edit-widget]').nth(i).boundingBox()))
      return chartBox!.x > textBox!.x + textBox!.width - 1 && Math.abs(chartBox!.y - textBox!.y) < 2
    }
    await expect.poll(beside).toBe(true)

    await page.getByRole('button', { name: `Delete widget ${widgets[0].id}` }).click()
    const confirm = page.getByRole('alertdialog', { name: 'Delete Widget' })
    await confirm.getByRole('button', { name: 'Delete' }).click()
    await page.locator(`[data-edit-widget="${widgets[0].id}"]`).waitFor({ state: 'detached' })
    expect((await api<BoardJson>('GET', `/api/dashboards/${created.id}`)).widgets.map((w) => w.id)).toEqual([widgets[1].id])
    expect(problems).toEqual([])
  })

  it('edits a text box in place, and asks before dropping typed changes', async () => {
    const b = await board('Text board')
    const { page } = await open(`${b.path}?edit`)
    await page.getByRole('button', { name: `Edit text box ${b.text}` }).click()
    const dialog = page.getByRole('dialog', { name: 'Edit Textbox' })
    await dialog.getByLabel('Text').fill('Changed words')
    await dialog.getByRole('button', { name: 'Cancel' }).click()
    await page.getByRole('alertdialog', { name: 'Quit editing?' }).getByRole('button', { name: 'Cancel' }).click()
    await dialog.getByRole('button', { name: 'Save' }).click()
    await dialog.waitFor({ state: 'detached' })
    await page.locator(`[data-edit-widget="${b.text}"]`, { hasText: 'Changed words' }).waitFor()
    expect((await api<BoardJson>('GET', `/api/dashboards/${b.id}`)).widgets.find((w) => w.id === b.text)?.text).toBe('Changed words')
  })
})

describe('saving', () => {
  /** Drag the text box of `b` one column to the right; resolves once the page shows it has a change to save. */
  async function nudge(page: Page, b: Awaited<ReturnType<typeof board>>) {
    const text = page.locator(`[data-edit-widget="${b.text}"]`)
    const box = (await text.boundingBox())!
    const chartBox = (await page.locator(`[data-edit-widget="${b.chart}"]`).boundingBox())!
    await drag(page, { x: box.x + box.width / 2, y: box.y + box.height / 2 }, (box.x - chartBox.x) / 2, 0)
    await saveStatus(page).getByText('Saving').waitFor()
  }

  it('says Saving Failed with Retry when a save fails, and Retry saves', async () => {
    const b = await board('Flaky board')
    const { page } = await open(`${b.path}?edit`, { prepare: (context) => context.clock.install() })
    await page.locator(`[data-edit-widget="${b.text}"]`).waitFor()
    await page.route('**/api/widgets/*', (route) => route.request().method() === 'POST'
      ? route.fulfill({ status: 500, contentType: 'application/json', body: '{"message":"down"}' })
      : route.continue())
    await nudge(page, b)
    await page.clock.runFor(2_000)
    await saveStatus(page).getByText('Saving Failed').waitFor()
    await toastWith(page, 'Error saving changes.').waitFor()
    await page.unroute('**/api/widgets/*')
    await page.getByRole('button', { name: 'Retry' }).click()
    await saveStatus(page).getByText('Saved').waitFor()
    expect((await positions(b.id)).get(b.text)).toMatchObject({ col: 3 })
  })

  it('Done Editing saves what waits first, then leaves edit mode', async () => {
    const b = await board('Hasty board')
    const { page } = await open(`${b.path}?edit`)
    await page.locator(`[data-edit-widget="${b.text}"]`).waitFor()
    await nudge(page, b)
    await page.getByRole('button', { name: 'Done Editing' }).click()
    await page.waitForURL((url) => !url.searchParams.has('edit'))
    expect((await positions(b.id)).get(b.text)).toMatchObject({ col: 3 })
    // the widget stays where it was put, now on the view grid (once the view page has drawn both)
    await expect.poll(() => page.locator('[data-widget-id]').count(), { timeout: 20_000 }).toBeGreaterThanOrEqual(2)
    const [chart, text] = await page.locator('[data-widget-id]').evaluateAll((els) => els.map((el) => el.getBoundingClientRect().toJSON()))
    expect(text.left).toBeGreaterThan(chart.right + 10)
  })

  it('asks before the page is left with a change not yet saved', async () => {
    const b = await board('Unsaved board')
    const { page } = await open(`${b.path}?edit`)
    await page.locator(`[data-edit-widget="${b.text}"]`).waitFor()
    await nudge(page, b)
    const dialog = page.waitForEvent('dialog')
    await page.close({ runBeforeUnload: true })
    expect((await dialog).type()).toBe('beforeunload')
    await (await dialog).dismiss()
  })

  it('a change someone else made first is refused with the message that stays, and a lost right with its own', async () => {
    const b = await board('Contested board')
    const opened = await suite.newPage()
    await opened.page.clock.install()
    await opened.page.goto(`${suite.server.url}${b.path}`)
    await waitForIslands(opened.page)
    await api('POST', `/api/dashboards/${b.id}`, { name: 'Changed elsewhere' })
    await more(opened.page)
    await opened.page.getByRole('menuitem', { name: 'Unpublish' }).click()
    const conflict = toastWith(opened.page, 'It seems like the dashboard has been modified by another user.')
    await conflict.getByText('Please copy/backup your changes and reload this page.').waitFor()
    await opened.page.clock.runFor(60_000)
    expect(await conflict.isVisible()).toBe(true)

    const memberId = (await api<{ results: { id: number; email: string }[] }>('GET', '/api/users?q=max')).results.find((u) => u.email === MEMBER.email)!.id
    await api('POST', `/api/dashboards/${b.id}/acl`, { access_type: 'modify', user_id: memberId })
    const { page } = await open(b.path, { as: memberSession() })
    await api('DELETE', `/api/dashboards/${b.id}/acl`, { access_type: 'modify', user_id: memberId })
    await more(page)
    await page.getByRole('menuitem', { name: 'Unpublish' }).click()
    await toastWith(page, 'Dashboard update failed').getByText('Permission Denied.').waitFor()
  })
})

