import type { JSX } from 'react'
import { ui } from '../../islands/lib/ui.ts'
import { embedTexts as t } from '../shared/embed-texts.ts'
import { renderMarkdown } from '../shared/markdown.ts'
import { effectiveType, enumOptionList, isDateType, isMultiValue, isRangeType, type ParameterDefinition, type ParameterValue } from '../shared/parameters/index.ts'
import { formatPattern } from '../shared/time.ts'
import type { EmbedFilter } from '../queries/index.ts'

export type EmbedBody =
  | { kind: 'drawing'; html: string }
  | { kind: 'note'; text: string }
  | { kind: 'error'; text: string }
  | { kind: 'pending' }

export interface EmbedPageProps {
  query: { name: string; description: string }
  visualizationName: string | null
  showHeader: boolean
  showDescription: boolean
  /** The parameters' and filters' form, when either shows: it reloads the page with the new values (no script needed). */
  form: {
    parameters: {
      definitions: ParameterDefinition[]
      values: Record<string, ParameterValue>
      dropdowns: Record<string, { name: string; value: string }[]>
    } | null
    /** The result's filters, each with the values the drawing keeps. */
    filters: EmbedFilter[]
    /** The rest of the address (key, switches, hidden values), carried over by the form. */
    keep: [string, string][]
  } | null
  body: EmbedBody
  retrievedAt: Date | null
  queryHref: string | null
  downloadHref: string | null
}

const field = `${ui.input} ${ui.inputBorder} min-h-8 py-1 text-sm`
const fieldLabel = 'flex flex-col text-xs font-medium text-slate-600 dark:text-slate-300'

const formLabel = (form: NonNullable<EmbedPageProps['form']>) =>
  form.parameters && form.filters.length ? t.parametersAndFilters : form.parameters ? t.parameters : t.filters

/** A datetime input reads and writes `YYYY-MM-DDTHH:mm[:ss]`; parameters are written with a space. */
const forInput = (value: unknown) => (typeof value === 'string' ? value.replace(' ', 'T') : '')

function inputType(type: string): string {
  if (type === 'date' || type === 'date-range' || type === 'date-range-switchable') return 'date'
  return 'datetime-local'
}

/** One parameter's control, named as the address names it (`p_name`, a range's `p_name.start` / `.end`). */
function ParameterField({ def, value, choices }: { def: ParameterDefinition; value: ParameterValue; choices: { name: string; value: string }[] }): JSX.Element {
  const name = `p_${def.name}`
  const type = effectiveType(def.type)
  const label = def.title || def.name
  const step = type.endsWith('with-seconds') ? 1 : undefined
  if (isRangeType(type) && value !== null && typeof value === 'object' && !Array.isArray(value)) {
    return (
      <span className="flex gap-1">
        <input type={inputType(type)} step={step} name={`${name}.start`} defaultValue={forInput(value.start)} aria-label={`${label} (start)`} className={field} />
        <input type={inputType(type)} step={step} name={`${name}.end`} defaultValue={forInput(value.end)} aria-label={`${label} (end)`} className={field} />
      </span>
    )
  }
  if (isDateType(type)) return <input type={inputType(type)} step={step} name={name} defaultValue={forInput(value)} aria-label={label} className={field} />
  if (type === 'enum' || type === 'query') {
    const options = type === 'enum' ? enumOptionList(def).map((o) => ({ name: o, value: o })) : choices
    const multiple = isMultiValue(def)
    const chosen = (Array.isArray(value) ? value : value == null ? [] : [value]).map(String)
    return (
      <select name={name} multiple={multiple} defaultValue={multiple ? chosen : chosen[0]} aria-label={label} className={field}>
        {options.map((o) => <option key={o.value} value={o.value}>{o.name}</option>)}
      </select>
    )
  }
  const text = value == null || typeof value === 'object' ? '' : String(value)
  return <input type={type === 'number' ? 'number' : 'text'} step={type === 'number' ? 'any' : undefined} name={name} defaultValue={text} aria-label={label} className={field} />
}

/** A result filter's control, named as the address names it; a chosen value the result lacks is shown as chosen. */
function FilterField({ filter }: { filter: EmbedFilter }): JSX.Element {
  const values = [...filter.values, ...filter.chosen.filter((v) => !filter.values.includes(v))]
  return (
    <select name={filter.name} multiple={filter.multiple} defaultValue={filter.multiple ? filter.chosen : filter.chosen[0]} aria-label={filter.name} className={field}>
      {values.map((v) => <option key={v} value={v}>{v}</option>)}
    </select>
  )
}

function Body({ body }: { body: EmbedBody }): JSX.Element {
  // the drawing's viewBox lets it take the frame's whole width, wider or narrower than drawn, with no script
  if (body.kind === 'drawing') return <div className="embed-drawing min-h-0 overflow-auto [&>svg]:h-auto [&>svg]:w-full" data-embed-output dangerouslySetInnerHTML={{ __html: body.html }} />
  if (body.kind === 'error') {
    return <p role="alert" data-embed-error className="rounded-md border border-red-200 bg-red-50 px-3 py-2 text-sm text-red-800 dark:border-red-900 dark:bg-red-950/40 dark:text-red-200">{body.text}</p>
  }
  if (body.kind === 'pending') {
    return <p role="status" data-embed-pending className="py-8 text-center text-sm text-slate-500 dark:text-slate-400">{t.running} <span className="sr-only">{t.runningNoScript}</span></p>
  }
  return <p data-embed-note className="py-8 text-center text-sm text-slate-500 dark:text-slate-400">{body.text}</p>
}

/**
 * The embed page (spec 2 §2): one visualization, drawn on the server, in a frame of another site. No script: the
 * parameters are a form that reloads the page, and a run still going reloads it by itself (see the route).
 */
export function EmbedPage(p: EmbedPageProps): JSX.Element {
  return (
    <main className="flex min-h-screen flex-col gap-3 bg-white p-3 text-slate-900 dark:bg-slate-950 dark:text-slate-100" data-embed>
      {p.showHeader && (
        <header className="flex flex-col gap-1">
          <h1 className="text-base font-semibold">
            {p.query.name}
            {p.visualizationName && <small className="ml-2 text-sm font-normal text-slate-500 dark:text-slate-400">{p.visualizationName}</small>}
          </h1>
          {p.showDescription && p.query.description && (
            <div className="dashboard-markdown text-sm text-slate-600 dark:text-slate-300" data-embed-description dangerouslySetInnerHTML={{ __html: renderMarkdown(p.query.description) }} />
          )}
        </header>
      )}
      {p.form && (
        <form method="get" className="flex flex-wrap items-end gap-2" aria-label={formLabel(p.form)} data-embed-parameters={p.form.parameters ? '' : undefined}
          data-embed-filters={p.form.filters.length ? '' : undefined}>
          {p.form.keep.map(([name, value], i) => <input key={`${name}:${i}`} type="hidden" name={name} value={value} />)}
          {p.form.parameters?.definitions.map((def) => (
            <label key={def.name} className={fieldLabel}>
              <span className="mb-0.5">{def.title || def.name}</span>
              <ParameterField def={def} value={p.form!.parameters!.values[def.name] ?? null} choices={p.form!.parameters!.dropdowns[def.name] ?? []} />
            </label>
          ))}
          {p.form.filters.map((filter) => (
            <label key={filter.name} className={fieldLabel} data-embed-filter={filter.name}>
              <span className="mb-0.5">{filter.name}</span>
              <FilterField filter={filter} />
            </label>
          ))}
          <button type="submit" className={`${ui.primaryButton} min-h-8 px-3 py-1 text-xs`}>{t.apply}</button>
        </form>
      )}
      <Body body={p.body} />
      {(p.retrievedAt || p.queryHref || p.downloadHref) && (
        <footer className="mt-auto flex items-center gap-3 text-xs text-slate-500 dark:text-slate-400">
          {p.retrievedAt && <time dateTime={p.retrievedAt.toISOString()} data-embed-timestamp>{t.updated(formatPattern(p.retrievedAt))}</time>}
          <span className="ml-auto flex gap-3">
            {p.downloadHref && <a href={p.downloadHref} className="hover:text-indigo-700 dark:hover:text-indigo-300" data-embed-download>{t.downloadCsv}</a>}
            {p.queryHref && <a href={p.queryHref} target="_blank" rel="noopener noreferrer" className="hover:text-indigo-700 dark:hover:text-indigo-300" data-embed-link>{t.openQuery}</a>}
          </span>
        </footer>
      )}
    </main>
  )
}
