import type { Page } from 'playwright-core'
import { describe, expect, it } from 'vitest'
import { browserSuite, waitForIslands } from './support.ts'

/**
 * Layout details in a real browser: auto-height widgets (spec 1 §9 `position.autoHeight`) take the rows their content
 * needs in view and edit modes and push the widgets below, until resized by hand; and edit mode's keyboard moves
 * (arrows move the focused widget a cell, Shift+arrows resize it), saved after the pause as a drag is.
 */
const suite = browserSuite({ role: 'all' })
const { open, api } = suite

interface Position { col: number; row: number; sizeX: number; sizeY: number; autoHeight?: boolean }
const positions = async (id: number) =>
  new Map((await api<{ widgets: { id: number; options: { position: Position } }[] }>('GET', `/api/dashboards/${id}`)).widgets.map((w) => [w.id, w.options.position]))

const LONG = Array.from({ length: 14 }, (_, i) => `Line ${i + 1} of the notes`).join('\n\n')

/** A board with an auto-height text box of long text (stored 2 rows high), one of short text (stored 10 rows), and a box under the first. */
async function board(name: string) {
  const d = await api<{ id: number; slug: string }>('POST', '/api/dashboards', { name })
  const text = (body: string, position: Position) =>
    api<{ id: number }>('POST', '/api/widgets', { dashboard_id: d.id, visualization_id: null, text: body, options: { position } })
  const long = (await text(LONG, { col: 0, row: 0, sizeX: 3, sizeY: 2, autoHeight: true })).id
  const short = (await text('Short', { col: 3, row: 0, sizeX: 3, sizeY: 10, autoHeight: true })).id
  const below = (await text('Below', { col: 0, row: 2, sizeX: 3, sizeY: 2 })).id
  await api('POST', `/api/dashboards/${d.id}`, { is_draft: false })
  return { id: d.id, path: `/dashboards/${d.id}-${d.slug}`, long, short, below }
}

const box = async (page: Page, selector: string) => (await page.locator(selector).boundingBox())!
const saveStatus = (page: Page) => page.locator('[data-save-status]')

describe('auto-height widgets', () => {
  it('grow and shrink to their content on the view page, pushing the widget below down', async () => {
    const b = await board('Tall notes')
    const { page, scripts, problems } = await open(b.path)
    await waitForIslands(page)
    const long = page.locator(`article[data-widget-id="${b.long}"]`)
    await expect.poll(async () => (await long.boundingBox())!.height, { timeout: 10_000 }).toBeGreaterThan(6 * 50)
    // the whole text shows: its last line is inside the card
    const last = (await long.getByText('Line 14 of the notes').boundingBox())!
    const card = (await long.boundingBox())!
    expect(last.y + last.height).toBeLessThanOrEqual(card.y + card.height)
    const below = await box(page, `article[data-widget-id="${b.below}"]`)
    expect(below.y).toBeGreaterThanOrEqual(card.y + card.height)
    await expect.poll(async () => (await box(page, `article[data-widget-id="${b.short}"]`)).height).toBeLessThan(3 * 50)
    expect(scripts.some((url) => url.includes('/DashboardAutoHeight-'))).toBe(true)
    expect(problems).toEqual([])
  })

  it('take their content\'s rows in edit mode, and keep autoHeight until resized by hand', async () => {
    const b = await board('Edited notes')
    const { page, problems } = await open(`${b.path}?edit`)
    const long = page.locator(`[data-edit-widget="${b.long}"]`)
    await long.waitFor()
    await expect.poll(async () => (await long.boundingBox())!.height, { timeout: 10_000 }).toBeGreaterThan(6 * 50)
    const below = page.locator(`[data-edit-widget="${b.below}"]`)
    await expect.poll(async () => (await below.boundingBox())!.y).toBeGreaterThanOrEqual((await long.boundingBox())!.y + (await long.boundingBox())!.height)
    // moving the box below (by keyboard) saves the layout; the auto-height widgets keep autoHeight
    await below.focus()
    await page.keyboard.press('ArrowRight')
    await saveStatus(page).getByText('Saving').waitFor()
    await saveStatus(page).getByText('Saved').waitFor({ timeout: 10_000 })
    let saved = await positions(b.id)
    expect(saved.get(b.below)).toMatchObject({ col: 1 })
    expect(saved.get(b.long)?.autoHeight).toBe(true)
    // resizing the long one by hand ends its auto height
    await long.focus()
    await page.keyboard.press('Shift+ArrowDown')
    await saveStatus(page).getByText('Saved').waitFor({ timeout: 10_000 })
    await expect.poll(async () => (await positions(b.id)).get(b.long)?.autoHeight, { timeout: 10_000 }).toBe(false)
    saved = await positions(b.id)
    expect(saved.get(b.short)?.autoHeight).toBe(true)
    expect(problems).toEqual([])
  })
})

describe('keyboard moves in edit mode', () => {
  it('moves the focused widget a cell with the arrows and resizes it with Shift+arrows, saved after the pause', async () => {
    const b = await board('Keyboard board')
    const { page, problems } = await open(`${b.path}?edit`)
    const below = page.locator(`[data-edit-widget="${b.below}"]`)
    await below.waitFor()
    await saveStatus(page).getByText('Saved').waitFor()
    await below.focus()
    await page.keyboard.press('ArrowRight')
    await page.keyboard.press('ArrowRight')
    await page.keyboard.press('Shift+ArrowLeft')
    await page.keyboard.press('Shift+ArrowDown')
    // one save for the lot, after the pause
    await saveStatus(page).getByText('Saving').waitFor()
    await saveStatus(page).getByText('Saved').waitFor({ timeout: 10_000 })
    expect((await positions(b.id)).get(b.below)).toMatchObject({ col: 2, sizeX: 2, sizeY: 3 })
    // the focus stays on the widget, so the next key moves it again
    expect(await below.evaluate((el) => el === document.activeElement)).toBe(true)
    expect(problems).toEqual([])
  })
})
