/**
 * The Map types. Options and prepared data only: drawing needs the geo catalogue (region shapes for choropleths,
 * tiles or outlines for markers), which is a later step, so `render` is absent and the renderer says so.
 */
import type { VisualizationDefinition } from '../types.ts'
import { prepareChoropleth, type ChoroplethData } from './choropleth.ts'
import { prepareMarkers, type MarkersData } from './markers.ts'
import { ChoroplethOptionsSchema, MarkersOptionsSchema, type ChoroplethOptions, type MarkersOptions } from './options.ts'

export const choropleth: VisualizationDefinition<ChoroplethOptions, ChoroplethData> = {
  type: 'CHOROPLETH',
  name: 'Map (Choropleth)',
  options: ChoroplethOptionsSchema,
  prepare: (options, data) => prepareChoropleth(options, data),
}

export const markers: VisualizationDefinition<MarkersOptions, MarkersData> = {
  type: 'MAP',
  name: 'Map (Markers)',
  options: MarkersOptionsSchema,
  prepare: (options, data) => prepareMarkers(options, data),
}
