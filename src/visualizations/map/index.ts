/**
 * The Map types: `CHOROPLETH` shades the regions of a catalogue map by a value, `MAP` places markers at latitude
 * and longitude over country outlines. Both draw SVG with d3-geo; the shapes come from the catalogue (geometry.ts).
 */
import type { VisualizationDefinition } from '../types.ts'
import { prepareChoropleth, type ChoroplethData } from './choropleth.ts'
import { renderChoropleth } from './choropleth-svg.ts'
import { prepareMarkers, type MarkersData } from './markers.ts'
import { renderMarkers } from './markers-svg.ts'
import { ChoroplethOptionsSchema, MarkersOptionsSchema, type ChoroplethOptions, type MarkersOptions } from './options.ts'

export const choropleth: VisualizationDefinition<ChoroplethOptions, ChoroplethData> = {
  type: 'CHOROPLETH',
  name: 'Map (Choropleth)',
  options: ChoroplethOptionsSchema,
  prepare: (options, data) => prepareChoropleth(options, data),
  render: renderChoropleth,
}

export const markers: VisualizationDefinition<MarkersOptions, MarkersData> = {
  type: 'MAP',
  name: 'Map (Markers)',
  options: MarkersOptionsSchema,
  prepare: (options, data) => prepareMarkers(options, data),
  render: renderMarkers,
}
