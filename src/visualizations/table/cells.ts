/**
 * One table cell as safe HTML, by the column's `displayAs`: numbers and dates formatted, booleans as words, links
 * and images from URL templates (only http, https, mailto and relative URLs), JSON pretty-printed, and text
 * escaped, with URLs turned into links when asked. Shared by the Table and Details types.
 */
import { toDate, toNumber, valueKey } from '../data.ts'
import { formatPattern } from '../../shared/time.ts'
import { formatNumber } from '../format/number.ts'
import { escapeHtml } from '../format/text.ts'
import type { Row } from '../types.ts'
import type { TableColumnOptions } from './options.ts'

/** A column's options with every choice made: the display, the format and the alignment. */
export type ResolvedColumn = TableColumnOptions & {
  title: string
  displayAs: NonNullable<TableColumnOptions['displayAs']>
  alignContent: 'left' | 'center' | 'right'
  numberFormat: string
  dateTimeFormat: string
}

const SAFE_URL = /^(https?:|mailto:|\/|\.{0,2}\/|#|\?|[^:/?#]*(?:[/?#]|$))/i

/** `url` when it cannot run script (no javascript:, data: …), else null. */
export function safeUrl(url: string): string | null {
  const trimmed = url.trim()
  return trimmed && SAFE_URL.test(trimmed) ? trimmed : null
}

/**
 * A template filled from the row: `{{ @ }}` is the cell's value, `{{ name }}` another column's. In URLs a value
 * inside a longer template is percent-encoded; a template that is only the value keeps it whole (it is a URL).
 */
export function fillTemplate(template: string, value: unknown, row: Row, url = false): string {
  const whole = /^\s*\{\{\s*@\s*\}\}\s*$/.test(template)
  return template.replace(/\{\{\s*([^}]+?)\s*\}\}/g, (_, key: string) => {
    const v = key === '@' ? value : row[key]
    const text = v == null ? '' : valueKey(v)
    return url && !whole ? encodeURIComponent(text) : text
  })
}

function linkify(text: string): string {
  return escapeHtml(text).replace(/\bhttps?:\/\/[^\s<>"']+/g, (url) => `<a href="${url}" target="_blank" rel="noopener noreferrer">${url}</a>`)
}

function json(value: unknown): string {
  let parsed = value
  if (typeof value === 'string') {
    try {
      parsed = JSON.parse(value)
    } catch {
      return escapeHtml(value)
    }
  }
  // short values stay on one line, so a column of small objects does not make every row tall
  const compact = JSON.stringify(parsed)
  const text = compact.length <= 60 ? compact : JSON.stringify(parsed, null, 2)
  return `<pre style="margin:0;font-size:12px;white-space:pre-wrap">${escapeHtml(text)}</pre>`
}

/** The cell's HTML. Empty cells are empty. */
export function formatCell(value: unknown, column: ResolvedColumn, row: Row): string {
  if (value == null || value === '') return ''
  switch (column.displayAs) {
    case 'number': {
      const n = toNumber(value)
      return n === null ? escapeHtml(valueKey(value)) : escapeHtml(formatNumber(n, column.numberFormat))
    }
    case 'datetime': {
      const d = toDate(value)
      return d ? escapeHtml(formatPattern(d, column.dateTimeFormat)) : escapeHtml(valueKey(value))
    }
    case 'boolean': {
      const truthy = value === true || value === 1 || value === 'true' || value === 't'
      return escapeHtml(column.booleanValues[truthy ? 1 : 0])
    }
    case 'json': return json(value)
    case 'link': {
      const href = safeUrl(fillTemplate(column.linkUrlTemplate, value, row, true))
      const text = fillTemplate(column.linkTextTemplate || '{{ @ }}', value, row) || valueKey(value)
      if (!href) return escapeHtml(text)
      const title = column.linkTitleTemplate ? ` title="${escapeHtml(fillTemplate(column.linkTitleTemplate, value, row))}"` : ''
      const target = column.linkOpenInNewTab ? ' target="_blank" rel="noopener noreferrer"' : ''
      return `<a href="${escapeHtml(href)}"${title}${target}>${escapeHtml(text)}</a>`
    }
    case 'image': {
      const src = safeUrl(fillTemplate(column.imageUrlTemplate, value, row, true))
      if (!src) return escapeHtml(valueKey(value))
      const title = column.imageTitleTemplate ? fillTemplate(column.imageTitleTemplate, value, row) : ''
      const size = (['width', 'height'] as const)
        .map((k) => {
          const v = Number(k === 'width' ? column.imageWidth : column.imageHeight)
          return v > 0 ? ` ${k}="${v}"` : ''
        }).join('')
      return `<img src="${escapeHtml(src)}" alt="${escapeHtml(title)}"${title ? ` title="${escapeHtml(title)}"` : ''}${size} loading="lazy" style="max-width:100%">`
    }
    default: {
      const text = valueKey(value)
      return column.highlightLinks ? linkify(text) : escapeHtml(text)
    }
  }
}
