/**
 * The fixed parts of a one-sheet workbook (SpreadsheetML, ECMA-376) and the escaping of cell text. Only what Excel,
 * LibreOffice and the common readers need: content types, package and workbook relationships, the workbook, and a
 * style sheet whose cell formats 1 and 2 show serial numbers as a date and as a date with time.
 */
import type { ByteWriter } from '../../shared/byte-writer.ts'

const MAIN = 'http://schemas.openxmlformats.org/spreadsheetml/2006/main'
const PACKAGE_RELATIONSHIPS = 'http://schemas.openxmlformats.org/package/2006/relationships'
const RELATIONSHIP_TYPES = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships'
const DECLARATION = '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n'
const SPREADSHEET = 'application/vnd.openxmlformats-officedocument.spreadsheetml'

export const SHEET_PATH = 'xl/worksheets/sheet1.xml'
export const SHEET_START = `${DECLARATION}<worksheet xmlns="${MAIN}"><sheetData>`
export const SHEET_END = '</sheetData></worksheet>'

const CONTENT_TYPES =
  `${DECLARATION}<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">` +
  '<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>' +
  '<Default Extension="xml" ContentType="application/xml"/>' +
  `<Override PartName="/xl/workbook.xml" ContentType="${SPREADSHEET}.sheet.main+xml"/>` +
  `<Override PartName="/${SHEET_PATH}" ContentType="${SPREADSHEET}.worksheet+xml"/>` +
  `<Override PartName="/xl/styles.xml" ContentType="${SPREADSHEET}.styles+xml"/>` +
  '</Types>'

const ROOT_RELATIONSHIPS =
  `${DECLARATION}<Relationships xmlns="${PACKAGE_RELATIONSHIPS}">` +
  `<Relationship Id="rId1" Type="${RELATIONSHIP_TYPES}/officeDocument" Target="xl/workbook.xml"/>` +
  '</Relationships>'

const WORKBOOK =
  `${DECLARATION}<workbook xmlns="${MAIN}" xmlns:r="${RELATIONSHIP_TYPES}">` +
  '<sheets><sheet name="result" sheetId="1" r:id="rId1"/></sheets></workbook>'

const WORKBOOK_RELATIONSHIPS =
  `${DECLARATION}<Relationships xmlns="${PACKAGE_RELATIONSHIPS}">` +
  `<Relationship Id="rId1" Type="${RELATIONSHIP_TYPES}/worksheet" Target="worksheets/sheet1.xml"/>` +
  `<Relationship Id="rId2" Type="${RELATIONSHIP_TYPES}/styles" Target="styles.xml"/>` +
  '</Relationships>'

const STYLES =
  `${DECLARATION}<styleSheet xmlns="${MAIN}">` +
  '<numFmts count="2"><numFmt numFmtId="164" formatCode="yyyy-mm-dd"/>' +
  '<numFmt numFmtId="165" formatCode="yyyy-mm-dd hh:mm:ss"/></numFmts>' +
  '<fonts count="1"><font><sz val="11"/><name val="Calibri"/><family val="2"/></font></fonts>' +
  '<fills count="2"><fill><patternFill patternType="none"/></fill>' +
  '<fill><patternFill patternType="gray125"/></fill></fills>' +
  '<borders count="1"><border><left/><right/><top/><bottom/><diagonal/></border></borders>' +
  '<cellStyleXfs count="1"><xf numFmtId="0" fontId="0" fillId="0" borderId="0"/></cellStyleXfs>' +
  '<cellXfs count="3"><xf numFmtId="0" fontId="0" fillId="0" borderId="0" xfId="0"/>' +
  '<xf numFmtId="164" fontId="0" fillId="0" borderId="0" xfId="0" applyNumberFormat="1"/>' +
  '<xf numFmtId="165" fontId="0" fillId="0" borderId="0" xfId="0" applyNumberFormat="1"/></cellXfs>' +
  '<cellStyles count="1"><cellStyle name="Normal" xfId="0" builtinId="0"/></cellStyles>' +
  '</styleSheet>'

/** Every part but the sheet, in the order they are zipped. */
export const PACKAGE_PARTS: [path: string, xml: string][] = [
  ['[Content_Types].xml', CONTENT_TYPES],
  ['_rels/.rels', ROOT_RELATIONSHIPS],
  ['xl/workbook.xml', WORKBOOK],
  ['xl/_rels/workbook.xml.rels', WORKBOOK_RELATIONSHIPS],
  ['xl/styles.xml', STYLES],
]

/** A, B, … Z, AA, AB, … for a zero-based column index. */
export function columnLetters(index: number): string {
  let letters = ''
  for (let n = index + 1; n > 0; n = Math.floor((n - 1) / 26)) {
    letters = String.fromCharCode(65 + ((n - 1) % 26)) + letters
  }
  return letters
}

/** Whether the text needs `xml:space="preserve"` for readers to keep its leading or trailing whitespace. */
export function hasOuterWhitespace(s: string): boolean {
  return isXmlSpace(s.charCodeAt(0)) || isXmlSpace(s.charCodeAt(s.length - 1))
}

/** XML's whitespace: space, tab, LF, CR (other controls are written as `_xHHHH_`, which is not whitespace). */
function isXmlSpace(c: number): boolean {
  return c === 32 || c === 9 || c === 10 || c === 13
}

const HEX = '0123456789ABCDEF'

function isHex(c: number): boolean {
  return (c >= 48 && c <= 57) || (c >= 65 && c <= 70) || (c >= 97 && c <= 102)
}

/** `_x005F_` before text that reads as an `_xHHHH_` escape, so it comes back as written. */
function looksLikeEscape(s: string, i: number): boolean {
  return (
    s.charCodeAt(i + 1) === 120 && s.charCodeAt(i + 6) === 95 &&
    isHex(s.charCodeAt(i + 2)) && isHex(s.charCodeAt(i + 3)) && isHex(s.charCodeAt(i + 4)) && isHex(s.charCodeAt(i + 5))
  )
}

/** Writes `_xHHHH_`, the sheet escape for what XML cannot carry: control characters, and CR (XML reads it as LF). */
function writeCharEscape(out: ByteWriter, c: number): void {
  out.ascii('_x')
  for (let shift = 12; shift >= 0; shift -= 4) out.buf[out.pos++] = HEX.charCodeAt((c >> shift) & 15)
  out.buf[out.pos++] = 95
}

/** Cell text as XML character data, encoded as UTF-8 in the same pass. */
export function writeXmlText(out: ByteWriter, s: string): void {
  out.reserve(s.length * 7) // `_x005F_` / `_x0001_` are the longest a code unit becomes
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i)
    if (c >= 0x80) {
      if (c === 0xfffe || c === 0xffff) writeCharEscape(out, c)
      else i = out.nonAscii(s, i, c)
    } else if (c > 62) {
      if (c === 95 && looksLikeEscape(s, i)) out.ascii('_x005F_')
      else out.buf[out.pos++] = c
    } else if (c === 38) out.ascii('&amp;')
    else if (c === 60) out.ascii('&lt;')
    else if (c === 62) out.ascii('&gt;')
    else if (c < 32 && c !== 9 && c !== 10) writeCharEscape(out, c)
    else out.buf[out.pos++] = c
  }
}
