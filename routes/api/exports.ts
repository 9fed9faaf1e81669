import { Hono, type Context } from 'hono'
import { NotFound } from '../../src/errors.ts'
import type { Env } from '../../src/http/index.ts'
import { requireCaller, requestDateFormats, idParam } from '../../src/http/index.ts'
import type { Principal } from '../../src/permissions/index.ts'
import { dashboardPdf, dashboardPng, drawDashboard, drawVisualization, exportSearch, exportSlots, pdfOptions, pngScale, svgToPngAsync } from '../../src/rendering/index.ts'

const id = <E extends Env>(c: Context<E>) => idParam(c.req.param('id'), NotFound)

/** A file name of the name's letters and digits (ASCII), else the fallback. */
const fileName = (name: string, fallback: string, ext: string) => {
  const base = name.normalize('NFKD').replace(/[^A-Za-z0-9]+/g, '-').replace(/^-+|-+$/g, '').slice(0, 80)
  return `attachment; filename="${base || fallback}.${ext}"`
}

function file<E extends Env>(c: Context<E>, body: Uint8Array, type: string, disposition: string) {
  return c.body(body as Uint8Array<ArrayBuffer>, 200, { 'Content-Type': type, 'Content-Disposition': disposition, 'Cache-Control': 'no-store' })
}

/**
 * Exports drawn on the server for the caller (src/rendering): a dashboard as a PDF or one picture, a visualization
 * as a picture. Each takes the dashboard address's `p_<name>=…` values and `<column>=…` filters; the PDF takes
 * `paper` (a4, letter) and `orientation` (landscape, portrait). The caller's rights decide what is drawn: widgets of
 * sources they may not read are placeholders, what they may not see at all is 404.
 */
export default new Hono<Env>()
  .get('/dashboards/:id/export.pdf', requireCaller, async (c) => {
    const { principal } = c.var
    const paper = pdfOptions(c.req.query())
    const search = exportSearch(c.req.url)
    return exportSlots.run(async () => {
      const drawn = await drawDashboard(c.get('deps'), principal, id(c), { search, formats: requestDateFormats(c) })
      return file(c, await dashboardPdf(drawn, paper), 'application/pdf', fileName(drawn.name, `dashboard-${drawn.id}`, 'pdf'))
    })
  })
  .get('/dashboards/:id/export.png', requireCaller, async (c) => {
    const { principal } = c.var
    const scale = pngScale(c.req.query('scale') ?? '1')
    const search = exportSearch(c.req.url)
    return exportSlots.run(async () => {
      const drawn = await drawDashboard(c.get('deps'), principal, id(c), { search, formats: requestDateFormats(c) })
      return file(c, await dashboardPng(drawn, { scale }), 'image/png', fileName(drawn.name, `dashboard-${drawn.id}`, 'png'))
    })
  })
  .get('/visualizations/:id/export.png', requireCaller, async (c) => {
    const { principal } = c.var
    const scale = pngScale(c.req.query('scale'))
    const search = exportSearch(c.req.url)
    return exportSlots.run(() => visualizationPng(c, principal, scale, search))
  })

/** One visualization as a picture: a chart as drawn; a table, a counter or a message as a card. */
async function visualizationPng<E extends Env>(c: Context<E>, principal: Principal, scale: number, search: URLSearchParams) {
  const drawn = await drawVisualization(c.get('deps'), principal, id(c), { search, formats: requestDateFormats(c) })
  const png = drawn.kind === 'chart' && drawn.svg ? await svgToPngAsync(drawn.svg, { scale })
    : await dashboardPng({ id: 0, name: '', slug: '', widgets: [drawn] }, { scale })
  return file(c, png, 'image/png', fileName(drawn.title, `visualization-${drawn.visualizationId ?? id(c)}`, 'png'))
}
