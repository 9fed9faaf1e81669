/** The Counter type: one big number, optionally against a target. */
import type { VisualizationDefinition } from '../types.ts'
import { counterHtml } from './html.ts'
import { CounterOptionsSchema, type CounterOptions } from './options.ts'
import { prepareCounter, type CounterData } from './prepare.ts'

export const counter: VisualizationDefinition<CounterOptions, CounterData> = {
  type: 'COUNTER',
  name: 'Counter',
  options: CounterOptionsSchema,
  prepare: (options, data) => prepareCounter(options, data),
  render: (data, _options, size) => counterHtml(data, size),
}
