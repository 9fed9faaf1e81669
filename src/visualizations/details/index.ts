/** The Details type: one row as a record. */
import type { VisualizationDefinition } from '../types.ts'
import { detailsHtml } from './html.ts'
import { DetailsOptionsSchema, type DetailsOptions } from './options.ts'
import { prepareDetails, type DetailsData } from './prepare.ts'

export const details: VisualizationDefinition<DetailsOptions, DetailsData> = {
  type: 'DETAILS',
  name: 'Details View',
  options: DetailsOptionsSchema,
  prepare: prepareDetails,
  render: (data, _options, size) => detailsHtml(data, size),
}
