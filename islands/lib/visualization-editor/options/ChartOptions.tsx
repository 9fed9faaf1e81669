/**
 * The chart's option tabs, with the established tool's option names (`globalSeriesType`, `columnMapping`,
 * `xAxis`, `yAxis`, `seriesOptions` …). The y axes are written as a whole array: the schema wants a list, and
 * writing `yAxis.0` into a missing key would make an object instead.
 */
import type { JSX } from 'react'
import { queryTexts } from '../../../../src/shared/query-texts.ts'
import { CARTESIAN_TYPES, SERIES_TYPES, type SeriesType } from '../../../../src/visualizations/chart/options.ts'
import { PALETTES, seriesColor, type PaletteName } from '../../../../src/visualizations/theme.ts'
import { ui } from '../../ui.ts'
import { CheckField, columnChoices, ColumnsField, labelChoices, NumberField, SelectField, TextField } from '../fields.tsx'
import { getIn, type Options } from '../model.ts'
import { columnsWithRole, drawnMapping, withRole } from './chart-mapping.ts'
import type { OptionProps, OptionTab } from './types.ts'

const t = queryTexts.visualizationEditor.chart
const tabs = queryTexts.visualizationEditor.tabs
const grid = 'grid gap-4 sm:grid-cols-2'
const typeChoices = SERIES_TYPES.map((s) => [s, t.types[s]] as const)
const axisChoices = labelChoices(t.axisTypes)

function General({ options, columns, result, set }: OptionProps): JSX.Element {
  const chartType = (options.globalSeriesType as SeriesType | undefined) ?? 'column'
  const mapping = drawnMapping((options.columnMapping ?? {}) as Record<string, string>, chartType, result ?? null)
  const role = (r: string) => columnsWithRole(mapping, r, columns)
  const setRole = (r: string, chosen: string[]) => set(['columnMapping'], withRole(mapping, r, chosen))
  const one = (r: string) => (v: string | undefined) => setRole(r, v ? [v] : [])
  const legendOn = getIn(options, ['legend', 'enabled']) !== false
  const stacking = getIn(options, ['series', 'stacking'])
  return (
    <div className="flex flex-col gap-4">
      <div className={grid}>
        <SelectField label={t.chartType} value={chartType} choices={typeChoices} onChange={(v) => set(['globalSeriesType'], v)} />
        <SelectField label={t.xColumn} value={role('x')[0]} choices={columnChoices(columns)} empty onChange={one('x')} />
      </div>
      <ColumnsField label={t.yColumns} columns={columns.filter((c) => mapping[c] !== 'x')} value={role('y')} onChange={(v) => setRole('y', v)} />
      <div className={grid}>
        <SelectField label={t.groupBy} value={role('series')[0]} choices={columnChoices(columns)} empty onChange={one('series')} />
        <SelectField label={t.errorsColumn} value={role('yError')[0]} choices={columnChoices(columns)} empty onChange={one('yError')} />
        {chartType === 'bubble' && (
          <SelectField label={t.sizeColumn} value={role('size')[0]} choices={columnChoices(columns)} empty onChange={one('size')} />
        )}
        <SelectField label={t.legend} value={legendOn ? (getIn(options, ['legend', 'placement']) ?? 'auto') : 'hidden'}
          choices={[['auto', queryTexts.visualizationEditor.auto], ['top', 'Top'], ['below', 'Below'], ['right', 'Right'], ['hidden', t.legendHidden]]}
          onChange={(v) => set(['legend'], v === 'hidden' ? { ...(options.legend as Options), enabled: false }
            : { ...(options.legend as Options), enabled: true, placement: v ?? 'auto' })} />
        <SelectField label={t.stacking} value={typeof stacking === 'string' ? stacking : 'none'}
          choices={[['none', t.stackingNone], ['stack', t.stackingStack], ['percent', t.stackingPercent]]}
          onChange={(v) => set(['series', 'stacking'], v === 'none' || !v ? null : v)} />
      </div>
      <CheckField label={t.missingAsZero} checked={options.missingValuesAsZero !== false} onChange={(v) => set(['missingValuesAsZero'], v)} />
    </div>
  )
}

function XAxis({ options, set }: OptionProps): JSX.Element {
  return (
    <div className="flex flex-col gap-4">
      <div className={grid}>
        <SelectField label={t.axisType} value={getIn(options, ['xAxis', 'type']) ?? '-'} choices={axisChoices} onChange={(v) => set(['xAxis', 'type'], v)} />
        <TextField label={t.axisTitle} value={getIn(options, ['xAxis', 'title', 'text'])} onChange={(v) => set(['xAxis', 'title', 'text'], v)} />
      </div>
      <CheckField label={t.sortX} checked={options.sortX !== false} onChange={(v) => set(['sortX'], v)} />
      <CheckField label={t.showLabels} checked={getIn(options, ['xAxis', 'labels', 'enabled']) !== false}
        onChange={(v) => set(['xAxis', 'labels', 'enabled'], v)} />
    </div>
  )
}

function YAxes({ options, set }: OptionProps): JSX.Element {
  const axes = (Array.isArray(options.yAxis) ? options.yAxis : [{}, { opposite: true }]) as Options[]
  const change = (index: number, patch: Options) => set(['yAxis'], axes.map((a, i) => (i === index ? { ...a, ...patch } : a)))
  return (
    <div className="flex flex-col gap-6">
      {axes.map((axis, i) => (
        <fieldset key={i} className={grid}>
          <legend className="mb-2 text-sm font-semibold text-slate-900 dark:text-slate-100">{i === 0 ? 'Left Y Axis' : 'Right Y Axis'}</legend>
          <SelectField label={t.axisType} value={axis.type ?? 'linear'} choices={axisChoices} onChange={(v) => change(i, { type: v })} />
          <TextField label={t.axisTitle} value={getIn(axis, ['title', 'text'])} onChange={(v) => change(i, { title: { ...(axis.title as Options), text: v ?? '' } })} />
          <NumberField label={t.min} value={axis.rangeMin} onChange={(v) => change(i, { rangeMin: v ?? null })} />
          <NumberField label={t.max} value={axis.rangeMax} onChange={(v) => change(i, { rangeMax: v ?? null })} />
        </fieldset>
      ))}
    </div>
  )
}

function Series({ options, columns, result, set }: OptionProps): JSX.Element {
  const mapping = drawnMapping((options.columnMapping ?? {}) as Record<string, string>, (options.globalSeriesType as SeriesType | undefined) ?? 'column', result ?? null)
  const series = columnsWithRole(mapping, 'y', columns)
  const palette = (options.palette as PaletteName | undefined) ?? 'tableau10'
  if (series.length === 0) return <p className="text-sm text-slate-500 dark:text-slate-400">{t.noSeries}</p>
  return (
    <ul className="flex flex-col divide-y divide-slate-200 dark:divide-slate-800">
      {series.map((name, i) => {
        const own = (getIn(options, ['seriesOptions', name]) ?? {}) as Options
        const put = (key: string, v: unknown) => set(['seriesOptions', name, key], v)
        return (
          <li key={name} className="grid grid-cols-[1fr_4rem] items-end gap-3 py-3 first:pt-0 sm:grid-cols-[1fr_4rem_1fr]">
            <TextField label={`${t.seriesLabel} (${name})`} value={own.name} placeholder={name} onChange={(v) => put('name', v)} />
            <label className="block">
              <span className={ui.label}>{t.seriesColor}</span>
              <input type="color" aria-label={`${t.seriesColor} (${name})`} value={seriesColor(i, palette, own.color as string | undefined)}
                onChange={(e) => put('color', e.target.value)} className="h-[38px] w-full cursor-pointer rounded-md border border-slate-300 bg-white p-1 dark:border-slate-700 dark:bg-slate-950" />
            </label>
            <div className="col-span-2 sm:col-span-1">
              <SelectField label={t.seriesType} value={own.type} empty={t.seriesTypeDefault} choices={CARTESIAN_TYPES.map((c) => [c, t.types[c]] as const)}
                onChange={(v) => put('type', v)} />
            </div>
          </li>
        )
      })}
    </ul>
  )
}

function Colors({ options, set }: OptionProps): JSX.Element {
  const palette = (options.palette as PaletteName | undefined) ?? 'tableau10'
  return (
    <div className="flex flex-col gap-3">
      <SelectField label={t.palette} value={palette} choices={Object.keys(PALETTES).map((p) => [p, p] as const)} onChange={(v) => set(['palette'], v)} />
      <div className="flex gap-1" aria-hidden="true">
        {(PALETTES[palette] ?? PALETTES.tableau10).map((c) => <span key={c} className="h-5 w-5 rounded-sm" style={{ background: c }} />)}
      </div>
    </div>
  )
}

function DataLabels({ options, set }: OptionProps): JSX.Element {
  return (
    <div className="flex flex-col gap-4">
      <CheckField label={t.showDataLabels} checked={options.showDataLabels === true} onChange={(v) => set(['showDataLabels'], v)} />
      <TextField label={t.numberFormat} value={options.numberFormat} placeholder="0,0[.]00" onChange={(v) => set(['numberFormat'], v)} />
      <TextField label={t.percentFormat} value={options.percentFormat} placeholder="0[.]00%" onChange={(v) => set(['percentFormat'], v)} />
      <TextField label={t.dateTimeFormat} value={options.dateTimeFormat} placeholder="YYYY-MM-DD HH:mm" onChange={(v) => set(['dateTimeFormat'], v)} />
    </div>
  )
}

export function chartTabs(props: OptionProps): OptionTab[] {
  return [
    { id: 'general', label: tabs.general, content: <General {...props} /> },
    { id: 'x', label: tabs.xAxis, content: <XAxis {...props} /> },
    { id: 'y', label: tabs.yAxis, content: <YAxes {...props} /> },
    { id: 'series', label: tabs.series, content: <Series {...props} /> },
    { id: 'colors', label: tabs.colors, content: <Colors {...props} /> },
    { id: 'labels', label: tabs.dataLabels, content: <DataLabels {...props} /> },
  ]
}
