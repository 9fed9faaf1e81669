/** The Sunburst type: paths as nested rings, sized by weight. */
import type { VisualizationDefinition } from '../types.ts'
import { SunburstOptionsSchema, type SunburstOptions } from './options.ts'
import { sunburstSvg } from './plot.ts'
import { prepareSunburst, type SunburstData } from './prepare.ts'

export const sunburst: VisualizationDefinition<SunburstOptions, SunburstData> = {
  type: 'SUNBURST_SEQUENCE',
  name: 'Sunburst Sequence',
  options: SunburstOptionsSchema,
  prepare: (options, data) => prepareSunburst(options, data),
  render: sunburstSvg,
}
