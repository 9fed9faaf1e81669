import ExcelJS from 'exceljs'
import { RunnerError } from './runner.ts'

/** A cell as CSV text: dates as ISO timestamps, formulas as their last computed value, rich text as its plain text. */
function cellText(value: ExcelJS.CellValue): string {
  if (value === null || value === undefined) return ''
  if (value instanceof Date) return value.toISOString()
  if (typeof value === 'object') {
    if ('result' in value) return cellText(value.result as ExcelJS.CellValue)
    if ('richText' in value) return value.richText.map((r) => r.text).join('')
    if ('text' in value) return String(value.text)
    if ('error' in value) return ''
    return JSON.stringify(value)
  }
  return String(value)
}

const csvField = (s: string) => (/[",\r\n]/.test(s) ? `"${s.replaceAll('"', '""')}"` : s)

/**
 * The first worksheet of an Excel workbook (or the one named `sheet`, or at that 0-based index) as CSV, its first row the header: what DuckDB
 * then reads with its own CSV reader, so the workbook is parsed by a well-kept library and not by an extension.
 */
export async function excelToCsv(workbook: Buffer, sheet?: string | number): Promise<Buffer> {
  const book = new ExcelJS.Workbook()
  try {
    await book.xlsx.load(workbook as unknown as ExcelJS.Buffer)
  } catch (e) {
    throw new RunnerError(`This Excel workbook could not be read: ${e instanceof Error ? e.message : String(e)}`)
  }
  const ws = typeof sheet === 'number' ? book.worksheets[sheet] : sheet ? book.getWorksheet(sheet) : book.worksheets[0]
  if (!ws) {
    throw new RunnerError(typeof sheet === 'number' ? `The workbook has no sheet number ${sheet} (it has ${book.worksheets.length}; 0 is the first).`
      : sheet ? `The workbook has no sheet named ${sheet}.` : 'The workbook has no sheet.')
  }
  const width = ws.columnCount
  const lines: string[] = []
  ws.eachRow({ includeEmpty: false }, (row) => {
    const cells: string[] = []
    for (let i = 1; i <= width; i++) cells.push(csvField(cellText(row.getCell(i).value)))
    lines.push(cells.join(','))
  })
  return Buffer.from(lines.join('\n') + '\n', 'utf8')
}
