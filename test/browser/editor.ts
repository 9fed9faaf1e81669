import type { Page } from 'playwright-core'
import type { BrowserSuite, PageOptions } from './support.ts'

/**
 * The query editor at `pathname`, ready to type in, starting on the data source `source` (the editor opens on the
 * last source chosen, which it remembers in the browser).
 */
export async function openEditor(suite: BrowserSuite, pathname: string, o: PageOptions & { source: number }) {
  const opened = await suite.open(pathname, { ...o, storage: { ...o.storage, 'sightline:editor:last-data-source': String(o.source) } })
  await opened.page.locator('.cm-content').waitFor()
  return opened
}

/** Replace the editor's text (focused rather than clicked: an open completion list may cover the text). */
export async function typeQuery(page: Page, text: string) {
  await page.locator('.cm-content').focus()
  await page.keyboard.press('Control+A')
  await page.keyboard.press('Delete')
  await page.keyboard.insertText(text)
}
