import type { JSX } from 'react'
import type { ParameterDefinition } from '../../../src/shared/parameters/index.ts'
import { texts } from '../../../src/shared/texts.ts'
import { ui } from '../ui.ts'

/**
 * The query's parameters as plain text inputs, one per `{{ name }}` in the text. The typed widgets (dates, lists,
 * dropdowns) live in islands/lib/parameters once built; until then every value is entered as text.
 */
export function ParameterFields({ definitions, values, onChange }: {
  definitions: ParameterDefinition[]
  values: Record<string, string>
  onChange(name: string, value: string): void
}): JSX.Element | null {
  if (definitions.length === 0) return null
  return (
    <fieldset className="flex flex-wrap items-end gap-3">
      <legend className="sr-only">{texts.editor.parameters}</legend>
      {definitions.map((d) => (
        <label key={d.name} className="flex w-44 flex-col gap-1 text-xs font-medium text-slate-600 dark:text-slate-300">
          {d.title || d.name}
          <input className={`${ui.input} ${ui.inputBorder} py-1.5`} value={values[d.name] ?? ''} onChange={(e) => onChange(d.name, e.target.value)}
            data-parameter={d.name} />
        </label>
      ))}
    </fieldset>
  )
}
