/**
 * Where a report's memory goes: 18 charts (columns, lines, areas, dots of 365 points) rasterised as the mail's PNGs
 * and composed into a PDF, four times in a row, in this process, sampling its resident memory every 5 ms. Modes:
 * `vector` (the PDF draws the charts as vectors), `raster` (every chart falls back to a picture in the PDF), `png`
 * (the PNGs alone), `png-gc` (the PNGs alone, collecting garbage after each report: run with NODE_OPTIONS=--expose-gc).
 * `npx tsx bench/report-memory.ts vector`; prints the baseline and the peak.
 */
import { chartPictures, dashboardPdf, type DrawnWidget } from '../src/rendering/index.ts'
import { renderVisualizationSvg } from '../src/visualizations/render.server.ts'

const mode = process.argv[2] ?? 'vector'
const rows = Array.from({ length: 365 }, (_, g) => ({ day: new Date(Date.UTC(2026, 0, 1 + g)).toISOString().slice(0, 10), orders: (g * 7) % 97, revenue: ((g * 3) % 89) * 12.5 }))
const data = { columns: [{ name: 'day', type: 'date' }, { name: 'orders', type: 'integer' }, { name: 'revenue', type: 'float' }], rows }
const kinds = [
  { globalSeriesType: 'column', columnMapping: { day: 'x', orders: 'y' } }, { globalSeriesType: 'line', columnMapping: { day: 'x', revenue: 'y' } },
  { globalSeriesType: 'area', columnMapping: { day: 'x', orders: 'y' } }, { globalSeriesType: 'scatter', columnMapping: { orders: 'x', revenue: 'y' } },
]
const widgets: DrawnWidget[] = Array.from({ length: 18 }, (_, i) => {
  const svg = renderVisualizationSvg({ type: 'CHART', options: kinds[i % 4] } as never, data as never, { width: 560, height: 330 })
  // a clipping path is what the vectors do not draw: the PDF takes the chart's picture
  return { widgetId: i + 1, title: `Chart ${i}`, kind: 'chart', svg: mode === 'raster' ? svg.replace('<g ', '<g clip-path="url(#c)" ') : svg, position: { col: (i % 2) * 3, row: Math.floor(i / 2) * 8, sizeX: 3, sizeY: 8 } }
})
const base = process.memoryUsage().rss
let peak = base
const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 5)
let pdfKB = 0
for (let i = 0; i < 4; i++) {
  const pictures = await chartPictures(widgets, { forPdf: mode === 'raster' })
  if (mode === 'png-gc') (globalThis as { gc?: () => void }).gc?.()
  if (mode.startsWith('png')) continue
  pdfKB = (await dashboardPdf({ id: 1, name: 'Board', slug: 'board', widgets }, { paper: 'a4', orientation: 'landscape', pictures })).length / 1024
}
clearInterval(sampler)
const mb = (b: number) => Math.round(b / 2 ** 20)
console.log(JSON.stringify({ mode, pdfKB: Math.round(pdfKB), baselineRssMB: mb(base), peakRssMB: mb(peak), aboveBaselineMB: mb(peak - base) }))
