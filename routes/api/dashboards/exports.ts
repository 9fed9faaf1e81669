import { Hono } from 'hono'
import type { Env } from '../../../src/http/index.ts'
import { requireCaller, requestDateFormats } from '../../../src/http/index.ts'
import { dashboardPdf, dashboardPng, drawDashboard, exportSearch, exportSlots, pdfOptions, pngScale } from '../../../src/rendering/index.ts'
import { exportedFile, exportedId, fileName } from '../_exports.ts'

/**
 * A dashboard drawn on the server for the caller (src/rendering), as a PDF or one picture. The PDF takes `paper`
 * (a4, letter) and `orientation` (landscape, portrait); the picture a `scale`.
 */
export default new Hono<Env>()
  .get('/:id/export.pdf', requireCaller, async (c) => {
    const { principal } = c.var
    const paper = pdfOptions(c.req.query())
    const search = exportSearch(c.req.url)
    return exportSlots.run(async () => {
      const drawn = await drawDashboard(c.get('deps'), principal, exportedId(c), { search, formats: requestDateFormats(c) })
      return exportedFile(c, await dashboardPdf(drawn, paper), 'application/pdf', fileName(drawn.name, `dashboard-${drawn.id}`, 'pdf'))
    })
  })
  .get('/:id/export.png', requireCaller, async (c) => {
    const { principal } = c.var
    const scale = pngScale(c.req.query('scale') ?? '1')
    const search = exportSearch(c.req.url)
    return exportSlots.run(async () => {
      const drawn = await drawDashboard(c.get('deps'), principal, exportedId(c), { search, formats: requestDateFormats(c) })
      return exportedFile(c, await dashboardPng(drawn, { scale }), 'image/png', fileName(drawn.name, `dashboard-${drawn.id}`, 'png'))
    })
  })
