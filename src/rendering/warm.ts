import { renderVisualizationSvg } from '../visualizations/render.server.ts'
import { dashboardPdf } from './pdf.ts'
import { chartPictures } from './raster.ts'
import type { DrawnWidget } from './types.ts'

/**
 * A small chart drawn, rasterised and laid into a PDF once, so the first report a worker sends does not pay for what
 * is done once per process: compiling the chart library's and the PDF writer's code, parsing the shipped fonts
 * (for measuring, for pictures and for embedding). A cold process drew its first 18-chart report about 0.8 s slower
 * than the next ones (bench/exports.ts); four charts of a year's points and a PDF of them make most of that up. Awaited by nobody: a failure here is only logged by the caller.
 */
export async function warmRenderer(): Promise<void> {
  // a year of days in each kind of series: code runs hot only after many rows, as real charts have
  const rows = Array.from({ length: 365 }, (_, i) => ({ day: new Date(Date.UTC(2026, 0, 1 + i)).toISOString().slice(0, 10), orders: (i * 7) % 97, revenue: ((i * 3) % 89) * 12.5 }))
  const data = { columns: [{ name: 'day', type: 'date' }, { name: 'orders', type: 'integer' }, { name: 'revenue', type: 'float' }], rows }
  const kinds = [
    { globalSeriesType: 'column', columnMapping: { day: 'x', orders: 'y' } },
    { globalSeriesType: 'line', columnMapping: { day: 'x', revenue: 'y' } },
    { globalSeriesType: 'area', columnMapping: { day: 'x', orders: 'y' } },
    { globalSeriesType: 'scatter', columnMapping: { orders: 'x', revenue: 'y' } },
  ]
  const widgets: DrawnWidget[] = kinds.map((options, i) => ({
    widgetId: i + 1, title: 'Warm-up Ågé', kind: 'chart',
    svg: renderVisualizationSvg({ type: 'CHART', options }, data as never, { width: 560, height: 330 }),
    position: { col: (i % 2) * 3, row: Math.floor(i / 2) * 8, sizeX: 3, sizeY: 8 },
  }))
  // counters and tables are drawn as HTML: their code is compiled too
  for (const [type, options] of [['COUNTER', { counterColName: 'orders' }], ['TABLE', {}]] as const) {
    renderVisualizationSvg({ type, options }, data as never, { width: 320, height: 200 })
  }
  const pictures = await chartPictures(widgets)
  await dashboardPdf({ id: 0, name: 'Warm-up', slug: 'warm-up', widgets }, { paper: 'a4', orientation: 'landscape', pictures })
}
