import fs from 'node:fs'
import type { Page } from 'playwright-core'

/** Checks of a rendered page a user would notice: accessibility violations and broken layouts. */

const axeSource = fs.readFileSync(new URL('../../node_modules/axe-core/axe.min.js', import.meta.url), 'utf8')

type Violation = { id: string; impact: string | null; help: string; nodes: { target: unknown[] }[] }

/**
 * What axe has checked in this run of the layer: each kind of page, and the colour schemes it was checked in. The
 * browser layer's files share one worker's modules (vitest.config.ts), so a kind checked by one file is not checked
 * again by the next.
 */
const checked = new Map<string, Set<string>>()

/**
 * The kind of page on screen: its address with ids taken out (`/queries/7/source` → `/queries/:id/source`) and the
 * names of the dialogs open on it. A page at another width, for another person or with other rows is the same kind.
 */
const pageKind = (page: Page) => page.evaluate(() => {
  const where = location.pathname.split('/').map((part) => (/^\d/.test(part) ? ':id' : part)).join('/')
  const dialogs = [...document.querySelectorAll('[role="dialog"], [role="alertdialog"], dialog[open]')]
    .map((d) => d.getAttribute('aria-label') ?? d.querySelector('h1, h2, h3')?.textContent ?? d.getAttribute('role'))
  return { kind: [where, ...dialogs].join(' + '), scheme: matchMedia('(prefers-color-scheme: dark)').matches ? 'dark' : 'light' }
})

/**
 * The accessibility violations a user would feel (serious or critical), checked once per kind of page in a run:
 * every axe rule the first time a kind is seen, then only colour contrast the first time it is seen in the other
 * colour scheme (the one thing a scheme changes), then nothing more (widths and other people's rows of a page already
 * checked). axe is as costly as drawing the page; checking every variant of every page was most of the browser
 * layer's time.
 */
export async function seriousA11yViolations(page: Page) {
  const { kind, scheme } = await pageKind(page)
  const schemes = checked.get(kind)
  if (schemes?.has(scheme)) return []
  const rules = schemes ? ['color-contrast'] : undefined
  if (schemes) schemes.add(scheme)
  else checked.set(kind, new Set([scheme]))
  // evaluated through the debugging protocol, which the page's script policy (no inline scripts) does not govern
  await page.evaluate(axeSource)
  const result = await page.evaluate(async (runOnly) => {
    const axe = (window as unknown as { axe: { run(context: Document, options: object): Promise<{ violations: Violation[] }> } }).axe
    // every rule still runs on every node; only the passes go uncollected, which is most of axe's time on a big page
    return axe.run(document, { resultTypes: ['violations'], ...(runOnly ? { runOnly } : {}) })
  }, rules)
  return result.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.impact} ${v.id}: ${v.help} — ${v.nodes.map((n) => JSON.stringify(n.target)).join(', ')}`)
}

/**
 * What breaks a layout outright: sideways scrolling, something sticking out past the right edge, an image that did
 * not load. `scope` names where to look; `skip` names parts that may legitimately extend (scrolling tab bars).
 */
export async function layoutProblems(page: Page, o: { scope: string; skip?: string }): Promise<string[]> {
  return page.evaluate(({ scope, skip }) => {
    const problems: string[] = []
    const width = document.documentElement.clientWidth
    if (document.documentElement.scrollWidth > width) problems.push(`page scrolls sideways: ${document.documentElement.scrollWidth} > ${width}`)
    for (const img of document.images) if (!img.complete || img.naturalWidth === 0) problems.push(`image not loaded: ${img.src}`)
    const ignored = ['.sr-only', '[hidden]', 'details:not([open]) > div', ...(skip ? [skip] : [])].join(', ')
    for (const el of document.querySelectorAll<HTMLElement>(scope)) {
      const style = getComputedStyle(el)
      if (style.display === 'none' || style.visibility === 'hidden' || el.closest(ignored)) continue
      const r = el.getBoundingClientRect()
      if (r.width > 0 && r.right > width + 1) problems.push(`${el.tagName.toLowerCase()}.${el.className} sticks out: right ${Math.round(r.right)} > ${width}`)
    }
    return problems
  }, o)
}

/**
 * Puts the open page in the light or the dark colour scheme. Sightline's `dark:` styles follow the media query, so a
 * page checked in one scheme is checked in the other without being opened again.
 */
export const useScheme = (page: Page, dark: boolean) => page.emulateMedia({ colorScheme: dark ? 'dark' : 'light' })
