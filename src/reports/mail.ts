import { escapeHtml } from '../mail/index.ts'
import type { RichMailMessage } from '../mail/index.ts'
import type { DrawnDashboard, DrawnWidget } from '../rendering/index.ts'
import type { FileAttachment } from './attachments.ts'

export const mailTexts = {
  subject: (name: string, late: boolean) => `${late ? '[Late] ' : ''}Report: ${name}`,
  late: 'This report was due earlier and is sent late: the server that sends reports was not running at its time.',
  open: 'Open the live dashboard',
  openQuery: 'Open the query',
  unsubscribe: 'Unsubscribe from this report',
  why: (owner: string) => `You receive this report because ${owner} subscribed you to it.`,
  attached: 'The files attached hold each widget\'s result.',
  noPicture: 'The chart is attached as a picture to mails that ask for pictures; open the dashboard to see it.',
}

export interface ReportMailInput {
  to: string
  drawing: DrawnDashboard
  /** Absolute address of the live dashboard or query, or null when no public origin is set. */
  link: string | null
  isQuery: boolean
  unsubscribeUrl: string
  ownerName: string
  late: boolean
  /** Pictures by widget id (inline by `cid`), when the report asks for `png`. */
  pictures: Map<number, Buffer>
  pdf: Buffer | null
  files: FileAttachment[]
  notes: string[]
}

const cidOf = (widgetId: number) => `widget-${widgetId}@sightline`

/** One widget as mail HTML: its title, then its picture, its HTML (counters, tables, text boxes) or why it has none. */
function widgetHtml(w: DrawnWidget, pictures: Map<number, Buffer>): string {
  const title = w.title ? `<h3 style="margin: 16px 0 4px; font-size: 15px">${escapeHtml(w.title)}</h3>` : ''
  let body: string
  if (w.kind === 'chart') {
    const size = w.size ? ` width="${Math.round(Math.min(w.size.width, 640))}"` : ''
    body = pictures.has(w.widgetId)
      ? `<img src="cid:${cidOf(w.widgetId)}" alt="${escapeHtml(w.title)}"${size} style="max-width: 100%; height: auto">`
      : `<p style="color: #666">${escapeHtml(mailTexts.noPicture)}</p>`
  } else if (w.kind === 'html' || w.kind === 'text') {
    // drawn by the server (counters, tables) or sanitized on the way in (text boxes, src/dashboards/markdown.ts)
    body = `<div>${w.html ?? ''}</div>`
  } else {
    body = `<p style="color: #666; font-style: italic">${escapeHtml(w.message ?? '')}</p>`
  }
  return `<div style="margin-bottom: 12px">${title}${body}</div>`
}

/** The widgets in the page's reading order: row by row, left to right. */
const inOrder = (widgets: DrawnWidget[]) => [...widgets].sort((a, b) => a.position.row - b.position.row || a.position.col - b.position.col)

/**
 * A report's mail for one recipient: the widgets they may see (the rest as placeholders), pictures inline, the PDF
 * and result files attached, a link to the live dashboard, and their own unsubscribe link, also as the
 * `List-Unsubscribe` header with one-click POST (RFC 8058).
 */
export function reportMail(m: ReportMailInput): RichMailMessage {
  const name = m.drawing.name
  const parts: string[] = [`<h2 style="font-size: 18px; margin: 0 0 8px">${escapeHtml(name)}</h2>`]
  if (m.late) parts.push(`<p style="color: #a15c00">${escapeHtml(mailTexts.late)}</p>`)
  if (m.link) parts.push(`<p><a href="${escapeHtml(m.link)}">${escapeHtml(m.isQuery ? mailTexts.openQuery : mailTexts.open)}</a></p>`)
  for (const w of inOrder(m.drawing.widgets)) parts.push(widgetHtml(w, m.pictures))
  for (const note of m.notes) parts.push(`<p style="color: #a15c00">${escapeHtml(note)}</p>`)
  parts.push(`<hr><p style="color: #666; font-size: 12px">${escapeHtml(mailTexts.why(m.ownerName))}<br>` +
    `<a href="${escapeHtml(m.unsubscribeUrl)}">${escapeHtml(mailTexts.unsubscribe)}</a></p>`)
  const html = `<!doctype html>\n<html><body style="font-family: sans-serif; line-height: 1.4; color: #222">\n${parts.join('\n')}\n</body></html>\n`
  const text = [
    name, m.late ? mailTexts.late : '', m.link ? `${m.isQuery ? mailTexts.openQuery : mailTexts.open}: ${m.link}` : '',
    ...inOrder(m.drawing.widgets).map((w) => `- ${w.title || w.kind}${w.message ? `: ${w.message}` : ''}`),
    ...m.notes, '', mailTexts.why(m.ownerName), `${mailTexts.unsubscribe}: ${m.unsubscribeUrl}`,
  ].filter((line, i) => line !== '' || i > 3).join('\n')
  const attachments: NonNullable<RichMailMessage['attachments']> = []
  for (const [widgetId, png] of m.pictures) {
    if (!m.drawing.widgets.some((w) => w.widgetId === widgetId && w.kind === 'chart')) continue
    attachments.push({ filename: `widget-${widgetId}.png`, content: png, contentType: 'image/png', cid: cidOf(widgetId) })
  }
  if (m.pdf) attachments.push({ filename: `${name.replace(/[^\p{L}\p{N} _.-]+/gu, '_').slice(0, 80) || 'report'}.pdf`, content: m.pdf, contentType: 'application/pdf' })
  attachments.push(...m.files)
  return {
    to: m.to, subject: mailTexts.subject(name, m.late), html, text, attachments,
    headers: { 'List-Unsubscribe': `<${m.unsubscribeUrl}>`, 'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click' },
  }
}
