/** The Word cloud type: words sized by how often they occur. */
import type { VisualizationDefinition } from '../types.ts'
import { WordCloudOptionsSchema, type WordCloudOptions } from './options.ts'
import { wordCloudSvg } from './plot.ts'
import { prepareWordCloud, type WordCloudData } from './prepare.ts'

export const wordCloud: VisualizationDefinition<WordCloudOptions, WordCloudData> = {
  type: 'WORD_CLOUD',
  name: 'Word Cloud',
  options: WordCloudOptionsSchema,
  prepare: (options, data) => prepareWordCloud(options, data),
  render: wordCloudSvg,
}
