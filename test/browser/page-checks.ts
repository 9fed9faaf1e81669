import fs from 'node:fs'
import type { Page } from 'playwright-core'

/** Checks of a rendered page a user would notice: accessibility violations and broken layouts. */

const axeSource = fs.readFileSync(new URL('../../node_modules/axe-core/axe.min.js', import.meta.url), 'utf8')

/** Inject axe-core and return the violations a user would feel (serious or critical). */
export async function seriousA11yViolations(page: Page) {
  // evaluated through the debugging protocol, which the page's script policy (no inline scripts) does not govern
  await page.evaluate(axeSource)
  const result = await page.evaluate(async () => {
    type Violation = { id: string; impact: string | null; help: string; nodes: { target: unknown[] }[] }
    const axe = (window as unknown as { axe: { run(context: Document, options: { resultTypes: string[] }): Promise<{ violations: Violation[] }> } }).axe
    // every rule still runs on every node; only the passes go uncollected, which is most of axe's time on a big page
    return axe.run(document, { resultTypes: ['violations'] })
  })
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
