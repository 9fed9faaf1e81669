/** The option tabs for a visualization type: hand-written for the most used types, read off the schema for the rest. */
import { createElement } from 'react'
import { queryTexts } from '../../../../src/shared/query-texts.ts'
import { chartTabs } from './ChartOptions.tsx'
import { counterTabs } from './CounterOptions.tsx'
import { genericTabs } from './GenericOptions.tsx'
import { choroplethTabs, markersTabs } from './MapOptions.tsx'
import { ColumnsEditor, tableTabs } from './TableOptions.tsx'
import type { OptionProps, OptionTab } from './types.ts'

export type { OptionProps, OptionTab } from './types.ts'

export function optionTabs(type: string, props: OptionProps): OptionTab[] {
  switch (type) {
    case 'CHART': return chartTabs(props)
    case 'COUNTER': return counterTabs(props)
    case 'TABLE': return tableTabs(props)
    case 'CHOROPLETH': return choroplethTabs(props)
    case 'MAP': return markersTabs(props)
    // Details shows one row as a record, with the table's per-column settings.
    case 'DETAILS': return [{ id: 'columns', label: queryTexts.visualizationEditor.tabs.columns, content: createElement(ColumnsEditor, props) }]
    default: return genericTabs(type, props)
  }
}
