/**
 * Dashboards and visualizations drawn on the server for one viewer, as pictures and PDF: what exports and reports
 * are made of. Drawing reuses the page's own (src/dashboards/view.ts, src/results/drawing.ts), so an export shows
 * exactly what the viewer's page shows, with the same rights.
 */

export { dashboardPng, dashboardSvg } from './dashboard-svg.ts'
export { drawDashboard, drawTexts, drawVisualization, svgSize } from './draw.ts'
export { drawingSearch, exportSearch, MAX_VALUE_LENGTH, MAX_VALUES, pdfOptions, pngScale } from './options.ts'
export { dashboardPdf, PAPER_POINTS } from './pdf.ts'
export type { DashboardPdfOptions } from './pdf.ts'
export { chartPictures, pngSize, svgToPicture, svgToPng, svgToPngAsync } from './raster.ts'
export type { Picture, PngOptions } from './raster.ts'
export { runForDrawing } from './refresh.ts'
export type { RunOutcome } from './refresh.ts'
export { exportSlots, Slots, slotTexts } from './slots.ts'
export { warmRenderer } from './warm.ts'
export type { DrawnDashboard, DrawnWidget, DrawOptions, GridPosition, Orientation, Paper, PdfOptions, RenderDeps } from './types.ts'
