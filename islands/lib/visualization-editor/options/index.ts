/** The option tabs for a visualization type: hand-written for the most used types, read off the schema for the rest. */
import { ColumnsEditor, tableTabs } from './TableOptions.tsx'
import { chartTabs } from './ChartOptions.tsx'
import { counterTabs } from './CounterOptions.tsx'
import { genericTabs } from './GenericOptions.tsx'
import type { OptionProps, OptionTab } from './types.ts'
import { createElement } from 'react'
import { texts } from '../../../../src/shared/texts.ts'

export type { OptionProps, OptionTab } from './types.ts'

export function optionTabs(type: string, props: OptionProps): OptionTab[] {
  switch (type) {
    case 'CHART': return chartTabs(props)
    case 'COUNTER': return counterTabs(props)
    case 'TABLE': return tableTabs(props)
    case 'DETAILS': return [{ id: 'columns', label: texts.visualizationEditor.tabs.columns, content: createElement(ColumnsEditor, props) }]
    default: return genericTabs(type, props)
  }
}
