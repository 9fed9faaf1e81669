/**
 * Server-side rendering: the isomorphic renderer with a linkedom document, so charts reach the page as SVG before
 * any script loads. Server only (linkedom is a Node dependency); islands import render.ts instead.
 */
import { parseHTML } from 'linkedom'
// maps read their shapes from the files the product ships
import './map/geo.server.ts'
import { renderVisualization, type ResultInput, type VisualizationInput } from './render.ts'
import type { Size, ViewState } from './types.ts'

// one document serves every render: Plot only creates detached elements in it, which are collected afterwards
const { document } = parseHTML('<!doctype html><html><head></head><body></body></html>')

/**
 * `vis` drawn from `data` at `size`: an <svg> string for charts, semantic HTML for counter, details, table, pivot
 * and cohort. `view` carries the viewer's filter choices and the table's page and search.
 */
export function renderVisualizationSvg(vis: VisualizationInput, data: ResultInput, size: Size, view: ViewState = {}): string {
  return renderVisualization(vis, data, size, { document: document as unknown as Document }, view)
}
