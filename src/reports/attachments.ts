import type { Sql } from '../db/index.ts'
import type { DrawnDashboard } from '../rendering/index.ts'
import { xlsxStream, findResult, readRows } from '../results/index.ts'
import type { Cell, Column } from '../runners/index.ts'
import { ATTACHMENT_MAX_ROWS } from './limits.ts'

export interface FileAttachment {
  filename: string
  content: Buffer
  contentType: string
}

export const attachmentTexts = {
  capped: (name: string, rows: number, total: number) =>
    `${name}: the first ${rows.toLocaleString('en-US')} of ${total.toLocaleString('en-US')} rows are attached; download the rest from the query page.`,
}

/** The first `max` rows of a stored result, batch by batch. */
async function* firstRows(sql: Sql, result: { id: number; row_count: number; first_chunk?: Uint8Array | null }, max: number): AsyncGenerator<Cell[][]> {
  let left = max
  for await (const batch of readRows(sql, result.id, result.row_count, result.first_chunk)) {
    if (left <= 0) break
    yield batch.length > left ? batch.slice(0, left) : batch
    left -= batch.length
  }
}

const csvCell = (v: Cell) => {
  if (v === null || v === undefined) return ''
  const text = typeof v === 'object' ? JSON.stringify(v) : String(v)
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text
}

async function csvOf(columns: Column[], rows: AsyncIterable<Cell[][]>): Promise<Buffer> {
  const lines = [columns.map((c) => csvCell(c.name)).join(',')]
  for await (const batch of rows) for (const row of batch) lines.push(row.map(csvCell).join(','))
  return Buffer.from(lines.join('\r\n') + '\r\n', 'utf8')
}

async function bufferOf(stream: ReadableStream<Uint8Array>): Promise<Buffer> {
  const chunks: Uint8Array[] = []
  for await (const chunk of stream as unknown as AsyncIterable<Uint8Array>) chunks.push(chunk)
  return Buffer.concat(chunks)
}

const fileName = (title: string, widgetId: number, ext: string) =>
  `${(title || `widget-${widgetId}`).replace(/[^\p{L}\p{N} _.-]+/gu, '_').trim().slice(0, 80) || `widget-${widgetId}`}.${ext}`

/**
 * One CSV and/or XLSX file per widget with a result the recipient may see (the drawing as composed for them), each
 * capped at ATTACHMENT_MAX_ROWS rows; a capped file is named in the notes the mail shows.
 */
export async function resultFiles(sql: Sql, orgId: number, d: DrawnDashboard, formats: ('csv' | 'xlsx')[]): Promise<{ files: FileAttachment[]; notes: string[] }> {
  const files: FileAttachment[] = []
  const notes: string[] = []
  if (formats.length === 0) return { files, notes }
  for (const w of d.widgets) {
    if (w.kind === 'restricted' || w.kind === 'text' || w.queryResultId === undefined) continue
    const result = await findResult(sql, orgId, w.queryResultId)
    if (!result) continue
    const total = Number(result.row_count)
    if (total > ATTACHMENT_MAX_ROWS) notes.push(attachmentTexts.capped(w.title || `Widget ${w.widgetId}`, ATTACHMENT_MAX_ROWS, total))
    for (const format of formats) {
      const rows = firstRows(sql, result, ATTACHMENT_MAX_ROWS)
      files.push(format === 'csv'
        ? { filename: fileName(w.title, w.widgetId, 'csv'), content: await csvOf(result.columns, rows), contentType: 'text/csv; charset=utf-8' }
        : {
          filename: fileName(w.title, w.widgetId, 'xlsx'), content: await bufferOf(xlsxStream(result.columns, rows)),
          contentType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
        })
    }
  }
  return { files, notes }
}
