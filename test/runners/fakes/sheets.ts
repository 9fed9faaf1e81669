import { http, HttpResponse } from 'msw'
import { fakeGoogleToken } from './google-token.ts'

/**
 * The Sheets API v4 as its reference documents it (developers.google.com/sheets/api/reference/rest):
 * spreadsheets.get (`fields=sheets.properties`: each worksheet's sheetId, title, index and grid size) and
 * spreadsheets.values.get on an A1 range of whole rows (`'Title'!1:10000`: `values` as the sheet formats them,
 * trailing empty cells and rows left out), behind a bearer token from Google's token endpoint. Errors as Google
 * writes them: 404 NOT_FOUND, 403 PERMISSION_DENIED for a spreadsheet not shared with the account, 401
 * UNAUTHENTICATED, 429 RESOURCE_EXHAUSTED while made busy.
 */
export interface FakeSheet { title: string; rows: (i: number) => string[] | undefined; rowCount: number }

export function fakeSheets(books: Record<string, FakeSheet[]>, o: { privateBooks?: string[] } = {}) {
  const requests: { method: string; path: string; body: unknown }[] = []
  const google = fakeGoogleToken({ project: 'acme-sheets', scope: 'spreadsheets', requests })
  let busy = 0
  const gError = (code: number, status: string, message: string) => HttpResponse.json({ error: { code, message, status } }, { status: code })

  function refused(request: Request, id: string): Response | undefined {
    requests.push({ method: request.method, path: decodeURIComponent(new URL(request.url).pathname) + new URL(request.url).search, body: null })
    if (busy > 0) {
      busy--
      return gError(429, 'RESOURCE_EXHAUSTED', "Quota exceeded for quota metric 'Read requests' and limit 'Read requests per minute per user'.")
    }
    if (!google.valid.has((request.headers.get('authorization') ?? '').replace(/^Bearer /, ''))) {
      return gError(401, 'UNAUTHENTICATED', 'Request had invalid authentication credentials.')
    }
    if (o.privateBooks?.includes(id)) return gError(403, 'PERMISSION_DENIED', 'The caller does not have permission')
    if (!books[id]) return gError(404, 'NOT_FOUND', 'Requested entity was not found.')
  }

  const handlers = [
    google.handler,
    http.get('https://sheets.googleapis.com/v4/spreadsheets/:id', ({ request, params }) => {
      const id = String(params.id)
      const no = refused(request, id)
      if (no) return no
      return HttpResponse.json({
        sheets: books[id].map((sheet, index) => ({
          properties: { sheetId: 1000 + index, title: sheet.title, index, sheetType: 'GRID', gridProperties: { rowCount: sheet.rowCount, columnCount: 26 } },
        })),
      })
    }),
    http.get('https://sheets.googleapis.com/v4/spreadsheets/:id/values/:range', ({ request, params }) => {
      const id = String(params.id)
      const no = refused(request, id)
      if (no) return no
      const range = decodeURIComponent(new URL(request.url).pathname.split('/values/')[1])
      const m = /^'((?:[^']|'')*)'!(\d+):(\d+)$/.exec(range)
      const sheet = m && books[id].find((s) => s.title === m[1].replaceAll("''", "'"))
      if (!m || !sheet) return gError(400, 'INVALID_ARGUMENT', `Unable to parse range: ${range}`)
      const values: string[][] = []
      for (let i = Number(m[2]); i <= Math.min(Number(m[3]), sheet.rowCount); i++) {
        const row = sheet.rows(i - 1)
        if (row === undefined) break
        values.push(row)
      }
      while (values.length && !values.at(-1)!.length) values.pop()
      return HttpResponse.json({ range: `${m[1]}!A${m[2]}:Z${m[3]}`, majorDimension: 'ROWS', ...(values.length && { values }) })
    }),
  ]
  return {
    handlers, requests, keyFile: google.keyFile, key: google.key,
    expireTokens: () => google.valid.clear(),
    /** Whether an Authorization header carries a token the fake token endpoint issued. */
    isToken: (authorization: string | undefined) => google.valid.has((authorization ?? '').replace(/^Bearer /, '')),
    busyFor(n: number) {
      busy = n
    },
  }
}
