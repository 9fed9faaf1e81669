import { Hono, type Context } from 'hono'
import type { Env } from '../../../src/http/index.ts'
import { requireCaller, requestDateFormats } from '../../../src/http/index.ts'
import type { Principal } from '../../../src/permissions/index.ts'
import { dashboardPng, drawVisualization, exportSearch, exportSlots, pngScale, svgToPngAsync } from '../../../src/rendering/index.ts'
import { exportedFile, exportedId, fileName } from '../_exports.ts'

/** A visualization drawn on the server for the caller (src/rendering) as a picture, at the asked `scale`. */
export default new Hono<Env>()
  .get('/:id/export.png', requireCaller, async (c) => {
    const { principal } = c.var
    const scale = pngScale(c.req.query('scale'))
    const search = exportSearch(c.req.url)
    return exportSlots.run(() => visualizationPng(c, principal, scale, search))
  })

/** One visualization as a picture: a chart as drawn; a table, a counter or a message as a card. */
async function visualizationPng<E extends Env>(c: Context<E>, principal: Principal, scale: number, search: URLSearchParams) {
  const drawn = await drawVisualization(c.get('deps'), principal, exportedId(c), { search, formats: requestDateFormats(c) })
  const png = drawn.kind === 'chart' && drawn.svg ? await svgToPngAsync(drawn.svg, { scale })
    : await dashboardPng({ id: 0, name: '', slug: '', widgets: [drawn] }, { scale })
  return exportedFile(c, png, 'image/png', fileName(drawn.title, `visualization-${drawn.visualizationId ?? exportedId(c)}`, 'png'))
}
