/** One "General" tab built from the type's schema (see schema-fields.ts), for types without their own editor. */
import type { JSX } from 'react'
import { queryTexts } from '../../../../src/shared/query-texts.ts'
import { getVisualization } from '../../../../src/visualizations/registry.ts'
import { readOptions } from '../../../../src/visualizations/read-options.ts'
import { CheckField, columnChoices, ColumnsField, NumberField, SelectField, TextField } from '../fields.tsx'
import { getIn } from '../model.ts'
import { schemaFields, type SchemaField } from './schema-fields.ts'
import type { OptionProps, OptionTab } from './types.ts'

function FieldFor({ field, shown, columns, set }: OptionProps & { field: SchemaField; shown: Record<string, unknown> }): JSX.Element {
  const value = getIn(shown, field.path)
  const change = (v: unknown) => set(field.path, v)
  switch (field.kind) {
    case 'boolean':
      return <CheckField label={field.label} checked={value === true} onChange={change} />
    case 'number':
      return <NumberField label={field.label} value={value} onChange={change} />
    case 'choice':
      return <SelectField label={field.label} value={value} choices={(field.choices ?? []).map((c) => [c, c] as const)} empty onChange={change} />
    case 'column':
      return <SelectField label={field.label} value={value} choices={columnChoices(columns)} empty onChange={change} />
    case 'columns':
      return <ColumnsField label={field.label} columns={columns} value={Array.isArray(value) ? (value as string[]) : []} onChange={change} />
    default:
      return <TextField label={field.label} value={value} onChange={change} />
  }
}

export function genericTabs(type: string, props: OptionProps): OptionTab[] {
  const definition = getVisualization(type)
  const fields = definition ? schemaFields(definition.options) : []
  // Yes/no switches and column lists read best full width; the short fields pair up in two columns.
  const wide = (f: SchemaField) => f.kind === 'boolean' || f.kind === 'columns'
  // Fields show the values in effect, defaults included (an unset switch that defaults to on shows on); edits go
  // to the stored options only.
  const read = definition && readOptions(definition.options, props.options)
  const shown = read?.ok ? read.options : props.options
  return [{
    id: 'general',
    label: queryTexts.visualizationEditor.tabs.general,
    content: (
      <div className="grid gap-4 sm:grid-cols-2">
        {fields.map((f) => (
          <div key={f.path.join('.')} className={wide(f) ? 'sm:col-span-2' : undefined}><FieldFor field={f} shown={shown} {...props} /></div>
        ))}
      </div>
    ),
  }]
}
