import { renderVisualizationSvg } from '../visualizations/render.server.ts'
import { dashboardPdf } from './pdf.ts'
import { chartPictures } from './raster.ts'
import type { DrawnWidget } from './types.ts'

/**
 * A small chart drawn, rasterised and laid into a PDF once, so the first report a worker sends does not pay for what
 * is done once per process: compiling the chart library's and the PDF writer's code, parsing the shipped fonts
 * (for measuring, for pictures and for embedding). A cold process drew its first 18-chart report about 0.8 s slower
 * than the next ones (bench/exports.ts). Awaited by nobody: a failure here is only logged by the caller.
 */
export async function warmRenderer(): Promise<void> {
  const rows = Array.from({ length: 12 }, (_, i) => ({ month: `2026-${String(i + 1).padStart(2, '0')}-01`, orders: (i * 7) % 13, revenue: i * 12.5 }))
  const data = { columns: [{ name: 'month', type: 'date' }, { name: 'orders', type: 'integer' }, { name: 'revenue', type: 'float' }], rows }
  const kinds = [
    { globalSeriesType: 'column', columnMapping: { month: 'x', orders: 'y' } },
    { globalSeriesType: 'line', columnMapping: { month: 'x', revenue: 'y' } },
  ]
  const widgets: DrawnWidget[] = kinds.map((options, i) => ({
    widgetId: i + 1, title: 'Warm-up Ågé', kind: 'chart',
    svg: renderVisualizationSvg({ type: 'CHART', options }, data as never, { width: 320, height: 200 }),
    position: { col: i * 3, row: 0, sizeX: 3, sizeY: 6 },
  }))
  // counters and tables are drawn as HTML: their code is compiled too
  for (const [type, options] of [['COUNTER', { counterColName: 'orders' }], ['TABLE', {}]] as const) {
    renderVisualizationSvg({ type, options }, data as never, { width: 320, height: 200 })
  }
  const pictures = await chartPictures(widgets)
  await dashboardPdf({ id: 0, name: 'Warm-up', slug: 'warm-up', widgets }, { paper: 'a4', orientation: 'landscape', pictures })
}
