/** The Sankey type: flows between the stages of paths, widths by weight. */
import type { VisualizationDefinition } from '../types.ts'
import { SankeyOptionsSchema, type SankeyOptions } from './options.ts'
import { sankeySvg } from './plot.ts'
import { prepareSankey, type SankeyData } from './prepare.ts'

export const sankeyType: VisualizationDefinition<SankeyOptions, SankeyData> = {
  type: 'SANKEY',
  name: 'Sankey',
  options: SankeyOptionsSchema,
  prepare: (options, data) => prepareSankey(options, data),
  render: sankeySvg,
}
