import { describe, expect, it } from 'vitest'
import { renderVisualizationSvg } from '../visualizations/render.server.ts'
import { dashboardPdf } from './pdf.ts'
import type { DrawnWidget } from './types.ts'

/** Charts of lines, bars, areas and dots go into a PDF as vector paths and text; what the vectors cannot draw, as a picture. */
const rows = Array.from({ length: 60 }, (_, g) => ({ day: new Date(Date.UTC(2026, 0, 1 + g)).toISOString().slice(0, 10), orders: (g * 7) % 97, revenue: ((g * 3) % 89) * 12.5 }))
const data = { columns: [{ name: 'day', type: 'date' }, { name: 'orders', type: 'integer' }, { name: 'revenue', type: 'float' }], rows }

function chart(widgetId: number, options: Record<string, unknown>): DrawnWidget {
  const svg = renderVisualizationSvg({ type: 'CHART', options } as never, data as never, { width: 560, height: 330 })
  return { widgetId, title: `Chart ${widgetId}`, kind: 'chart', svg, position: { col: 0, row: (widgetId - 1) * 8, sizeX: 3, sizeY: 8 } }
}

const pdfText = async (widgets: DrawnWidget[]) =>
  Buffer.from(await dashboardPdf({ id: 1, name: 'Board', slug: 'board', widgets }, { paper: 'a4', orientation: 'landscape' })).toString('latin1')
const images = (pdf: string) => (pdf.match(/\/Subtype \/Image/g) ?? []).length

describe('charts in a PDF', () => {
  it('draws columns, lines, areas and dots as vectors: no picture in the file', async () => {
    const widgets = [
      chart(1, { globalSeriesType: 'column', columnMapping: { day: 'x', orders: 'y' } }),
      chart(2, { globalSeriesType: 'line', columnMapping: { day: 'x', revenue: 'y' } }),
      chart(3, { globalSeriesType: 'area', columnMapping: { day: 'x', orders: 'y' } }),
      chart(4, { globalSeriesType: 'scatter', columnMapping: { orders: 'x', revenue: 'y' } }),
    ]
    const pdf = await pdfText(widgets)
    expect(pdf.startsWith('%PDF-')).toBe(true)
    expect(images(pdf)).toBe(0)
    // four charts of 60 points each in a few dozen KB (fonts embedded as subsets), where pictures took hundreds
    expect(pdf.length).toBeLessThan(80_000)
  })

  it('draws a chart with what the vectors do not draw (here a clipping path) as a picture', async () => {
    const clipped = chart(1, { globalSeriesType: 'line', columnMapping: { day: 'x', orders: 'y' } })
    clipped.svg = clipped.svg!.replace('<g ', '<g clip-path="url(#c)" ')
    const pdf = await pdfText([clipped, chart(2, { globalSeriesType: 'column', columnMapping: { day: 'x', orders: 'y' } })])
    expect(images(pdf)).toBe(1)
  })
})
