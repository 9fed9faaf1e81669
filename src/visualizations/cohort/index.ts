/** The Cohort type: retention of groups that started together, stage by stage. */
import type { VisualizationDefinition } from '../types.ts'
import { cohortHtml } from './html.ts'
import { CohortOptionsSchema, type CohortOptions } from './options.ts'
import { prepareCohort, type CohortData } from './prepare.ts'

export const cohort: VisualizationDefinition<CohortOptions, CohortData> = {
  type: 'COHORT',
  name: 'Cohort',
  options: CohortOptionsSchema,
  prepare: (options, data) => prepareCohort(options, data),
  render: cohortHtml,
}
