/** The Funnel type: steps narrowing down, with the share kept at each step. */
import type { VisualizationDefinition } from '../types.ts'
import { FunnelOptionsSchema, type FunnelOptions } from './options.ts'
import { funnelSvg } from './plot.ts'
import { prepareFunnel, type FunnelData } from './prepare.ts'

export const funnel: VisualizationDefinition<FunnelOptions, FunnelData> = {
  type: 'FUNNEL',
  name: 'Funnel',
  options: FunnelOptionsSchema,
  prepare: (options, data) => prepareFunnel(options, data),
  render: funnelSvg,
}
