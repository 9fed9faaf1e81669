/**
 * Dashboards and visualizations drawn on the server for one viewer, as pictures and PDF: what exports and reports
 * are made of. Drawing reuses the page's own (src/dashboards/view.ts, src/results/drawing.ts), so an export shows
 * exactly what the viewer's page shows, with the same rights.
 */
export { drawDashboard, drawVisualization, drawTexts, svgSize } from './draw.ts'
export { chartPictures, pngSize, svgToPicture, svgToPng, svgToPngAsync, type Picture, type PngOptions } from './raster.ts'
export { dashboardPdf, PAPER_POINTS, type DashboardPdfOptions } from './pdf.ts'
export { dashboardPng, dashboardSvg } from './dashboard-svg.ts'
export { drawingSearch, exportSearch, pdfOptions, pngScale, MAX_VALUE_LENGTH, MAX_VALUES } from './options.ts'
export { runForDrawing, type RunOutcome } from './refresh.ts'
export { exportSlots, Slots, slotTexts } from './slots.ts'
export type { DrawnDashboard, DrawnWidget, DrawOptions, GridPosition, Orientation, Paper, PdfOptions, RenderDeps } from './types.ts'
