/** The counter's option tabs: which cell is the value (and the target), then how the number is written. */
import type { JSX } from 'react'
import { queryTexts } from '../../../../src/shared/query-texts.ts'
import { CheckField, columnChoices, NumberField, SelectField, TextField } from '../fields.tsx'
import type { OptionProps, OptionTab } from './types.ts'

const t = queryTexts.visualizationEditor.counter
const grid = 'grid gap-4 sm:grid-cols-2'

function General({ options, columns, set }: OptionProps): JSX.Element {
  return (
    <div className="flex flex-col gap-4">
      <TextField label={t.label} value={options.counterLabel} onChange={(v) => set(['counterLabel'], v)} />
      <div className={grid}>
        {/* without a column the counter shows the first one: the empty choice says so */}
        <SelectField label={t.valueColumn} value={options.counterColName} choices={columnChoices(columns)} empty={t.firstColumn} onChange={(v) => set(['counterColName'], v)} />
        <NumberField label={t.rowNumber} value={options.rowNumber ?? 1} onChange={(v) => set(['rowNumber'], v)} />
        <SelectField label={t.targetColumn} value={options.targetColName} choices={columnChoices(columns)} empty onChange={(v) => set(['targetColName'], v)} />
        <NumberField label={t.targetRowNumber} value={options.targetRowNumber ?? 1} onChange={(v) => set(['targetRowNumber'], v)} />
      </div>
      <CheckField label={t.countRows} checked={options.countRow === true} onChange={(v) => set(['countRow'], v)} />
    </div>
  )
}

function Format({ options, set }: OptionProps): JSX.Element {
  return (
    <div className="flex flex-col gap-4">
      <div className={grid}>
        <NumberField label={t.decimals} min={0} max={10} value={options.stringDecimal ?? 0} onChange={(v) => set(['stringDecimal'], v)} />
        <TextField label={t.decimalChar} value={options.stringDecChar} placeholder="." onChange={(v) => set(['stringDecChar'], v)} />
        <TextField label={t.thousandsSep} value={options.stringThouSep} placeholder="," onChange={(v) => set(['stringThouSep'], v)} />
        <TextField label={t.prefix} value={options.stringPrefix} onChange={(v) => set(['stringPrefix'], v)} />
        <TextField label={t.suffix} value={options.stringSuffix} onChange={(v) => set(['stringSuffix'], v)} />
      </div>
      <CheckField label={t.formatTarget} checked={options.formatTargetValue === true} onChange={(v) => set(['formatTargetValue'], v)} />
    </div>
  )
}

export function counterTabs(props: OptionProps): OptionTab[] {
  return [
    { id: 'general', label: queryTexts.visualizationEditor.tabs.general, content: <General {...props} /> },
    { id: 'format', label: queryTexts.visualizationEditor.tabs.format, content: <Format {...props} /> },
  ]
}
