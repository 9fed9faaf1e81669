import type { Page } from 'playwright-core'
import { beforeAll, describe, expect, it } from 'vitest'
import { browserSuite, DESKTOP, PHONE } from './support.ts'
import { layoutProblems } from './page-checks.ts'

/**
 * The app shell's layout on long and narrow pages: the dark side navigation runs the page's whole height however far
 * it scrolls, and the settings tabs and the users' tabs show every tab, the current one included, on a phone.
 */
const suite = browserSuite()
let longBoard = ''

beforeAll(async () => {
  const d = await suite.api<{ id: number; slug: string }>('POST', '/api/dashboards', { name: 'Long notes' })
  const text = Array.from({ length: 80 }, (_, i) => `Paragraph ${i + 1} of the notes.`).join('\n\n')
  await suite.api('POST', '/api/widgets', { dashboard_id: d.id, visualization_id: null, text, options: { position: { col: 0, row: 0, sizeX: 6, sizeY: 80 } } })
  await suite.api('POST', `/api/dashboards/${d.id}`, { is_draft: false })
  longBoard = `/dashboards/${d.id}-${d.slug}`
})

/**
 * Where the navigation's dark background ends, from the top of the page, and the page's height: the box nearest the
 * navigation (itself or a parent) that paints the dark colour. A full-page capture or a print shows this much of it.
 */
const darkColumn = (page: Page) => page.evaluate(() => {
  let el: HTMLElement | null = document.querySelector('nav[aria-label="Main"]')
  while (el && getComputedStyle(el).backgroundColor === 'rgba(0, 0, 0, 0)') el = el.parentElement
  const box = el!.getBoundingClientRect()
  return { bottom: Math.round(box.bottom + window.scrollY), left: Math.round(box.left), page: document.documentElement.scrollHeight }
})

describe('the side navigation', () => {
  it('runs the whole height of a long page, scrolled to its end', async () => {
    const { page, problems } = await suite.open(longBoard, { viewport: DESKTOP })
    const column = await darkColumn(page)
    expect(column.page).toBeGreaterThan(DESKTOP.height * 2)
    expect(column).toEqual({ bottom: column.page, left: 0, page: column.page })
    // scrolled to the end, the navigation is at the window's left, top to bottom
    await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight))
    await page.waitForFunction(() => window.scrollY + window.innerHeight >= document.documentElement.scrollHeight - 1)
    for (const y of [24, DESKTOP.height - 24]) {
      expect(await page.evaluate((at) => Boolean(document.elementFromPoint(24, at)?.closest('[data-side-column]')), y)).toBe(true)
    }
    // its links stay where they were: the Help link is still in the window
    expect(await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Help' }).isVisible()).toBe(true)
    expect(problems).toEqual([])
  })
})

/** The tabs of a navigation region that stick out of the window (left or right), by name. */
const tabsOutOfView = (page: Page, name: string) => page.getByRole('navigation', { name, exact: true }).getByRole('link').evaluateAll((links) =>
  links.filter((a) => {
    const r = a.getBoundingClientRect()
    return r.left < 0 || r.right > document.documentElement.clientWidth
  }).map((a) => a.textContent))

describe('settings tabs', () => {
  for (const viewport of [DESKTOP, PHONE]) {
    it(`show every tab, the current one included, at ${viewport.width} px`, async () => {
      for (const [path, current] of [['/users/pending', 'Pending Invitations'], ['/settings/general', 'General']] as const) {
        const { page, problems } = await suite.open(path, { viewport })
        const tabs = page.getByRole('navigation', { name: 'Settings', exact: true })
        expect(await tabs.getByRole('link').count(), path).toBe(6)
        expect(await tabsOutOfView(page, 'Settings'), path).toEqual([])
        if (path === '/users/pending') {
          expect(await tabsOutOfView(page, 'Users'), path).toEqual([])
          expect(await page.getByRole('navigation', { name: 'Users', exact: true }).getByRole('link', { name: current }).getAttribute('aria-current')).toBe('page')
        } else {
          expect(await tabs.getByRole('link', { name: current }).getAttribute('aria-current')).toBe('page')
        }
        expect(await layoutProblems(page, { scope: 'main *' }), path).toEqual([])
        expect(problems).toEqual([])
      }
    })
  }
})
