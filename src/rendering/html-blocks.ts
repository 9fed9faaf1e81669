import { parseHTML } from 'linkedom'

/**
 * Markup read as what a picture or a PDF can draw without a browser: a counter's value and label, a table's cells,
 * or a text box's paragraphs with their roles (heading, paragraph, list item, code, quote). Formatting inside a
 * paragraph (bold words, links) is kept as its text.
 */
export type Block =
  | { kind: 'counter'; value: string; label: string }
  | { kind: 'table'; header: string[]; rows: string[][]; numeric: boolean[] }
  | { kind: 'text'; paragraphs: Paragraph[] }

export interface Paragraph {
  role: 'h1' | 'h2' | 'h3' | 'p' | 'li' | 'code' | 'quote'
  text: string
}

/** The most table rows a drawing shows: a card holds a few dozen at most. */
const MAX_ROWS = 200

const clean = (text: string | null | undefined) => (text ?? '').replace(/\s+/g, ' ').trim()

export function htmlBlocks(html: string): Block {
  const { document } = parseHTML(`<!doctype html><html><body>${html}</body></html>`)
  const body = document.body
  const value = body.querySelector('.sl-counter-value')
  if (value) return { kind: 'counter', value: clean(value.textContent), label: clean(body.querySelector('.sl-counter-label')?.textContent) }
  const table = body.querySelector('table')
  if (table && !body.querySelector('.sl-markdown, p, h1, h2, h3')) return tableBlock(table)
  return { kind: 'text', paragraphs: paragraphsOf(body) }
}

function tableBlock(table: Element): Block {
  const headerCells = [...table.querySelectorAll('thead th')]
  const header = headerCells.map((th) => clean(th.textContent))
  const numeric = headerCells.map((th) => /text-align:\s*right/.test(th.getAttribute('style') ?? ''))
  const bodyRows = [...table.querySelectorAll('tbody tr')].slice(0, MAX_ROWS)
  const rows = bodyRows.map((tr) => [...tr.querySelectorAll('td, th')].map((td) => clean(td.textContent)))
  if (!header.length && rows.length) return { kind: 'table', header: rows[0], rows: rows.slice(1), numeric: rows[0].map(() => false) }
  return { kind: 'table', header, rows, numeric }
}

const ROLES: Record<string, Paragraph['role']> = {
  H1: 'h1', H2: 'h2', H3: 'h3', H4: 'h3', H5: 'h3', H6: 'h3', P: 'p', LI: 'li', PRE: 'code', BLOCKQUOTE: 'quote',
}

function paragraphsOf(root: Element): Paragraph[] {
  const out: Paragraph[] = []
  const walk = (node: Element) => {
    for (const child of [...node.children]) {
      const role = ROLES[child.tagName]
      if (role === 'quote') out.push(...paragraphsOf(child).map((p) => ({ ...p, role: 'quote' as const })))
      else if (role === 'code') out.push(...(child.textContent ?? '').split('\n').filter((l) => l.trim()).map((text) => ({ role: 'code' as const, text })))
      else if (role === 'li') {
        // a list item's own text, then its nested lists
        const own = [...child.childNodes].filter((n) => !['UL', 'OL'].includes((n as Element).tagName ?? '')).map((n) => n.textContent).join('')
        if (clean(own)) out.push({ role: 'li', text: clean(own) })
        for (const nested of [...child.children].filter((c) => c.tagName === 'UL' || c.tagName === 'OL')) walk(nested)
      } else if (role) {
        if (clean(child.textContent)) out.push({ role, text: clean(child.textContent) })
      } else if (child.tagName === 'TABLE') {
        for (const tr of [...child.querySelectorAll('tr')]) out.push({ role: 'p', text: [...tr.children].map((c) => clean(c.textContent)).join(' · ') })
      } else if (child.children.length) walk(child)
      else if (clean(child.textContent)) out.push({ role: 'p', text: clean(child.textContent) })
    }
  }
  walk(root)
  if (!out.length && clean(root.textContent)) out.push({ role: 'p', text: clean(root.textContent) })
  return out
}
