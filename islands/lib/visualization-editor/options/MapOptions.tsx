/**
 * The map types' option tabs. For a choropleth the map and its key property are picked from the catalogue's list
 * (names only: the shapes stay on the server until the preview fetches them), so a key can only be matched against
 * a property the chosen map has. Markers pick their latitude, longitude and group columns from the result.
 */
import type { JSX } from 'react'
import { queryTexts } from '../../../../src/shared/query-texts.ts'
import { findMap, mapCatalogue } from '../../../../src/visualizations/map/catalogue.ts'
import { ChoroplethOptionsSchema, MarkersOptionsSchema } from '../../../../src/visualizations/map/options.ts'
import { CheckField, columnChoices, labelChoices, NumberField, SelectField, TextField } from '../fields.tsx'
import type { OptionProps, OptionTab } from './types.ts'

// labels the spec does not word; they sit here until the shared texts have a map section
const t = {
  map: 'Map', keyColumn: 'Key Column', targetField: 'Target Field', valueColumn: 'Value Column', steps: 'Steps',
  clustering: 'Clustering Mode', valueFormat: 'Value Format', placeholder: 'Value Placeholder', showLegend: 'Show Legend',
  legendPosition: 'Legend Position', legendAlign: 'Legend Text Alignment', tooltip: 'Show Tooltip', tooltipTemplate: 'Tooltip Template',
  lat: 'Latitude Column', lon: 'Longitude Column', groupBy: 'Group by', cluster: 'Cluster Markers', tileUrl: 'Tile Server URL',
  minColor: 'Min Color', maxColor: 'Max Color', noValueColor: 'No Value Color', borders: 'Borders Color', background: 'Background Color',
}
const grid = 'grid gap-4 sm:grid-cols-2'
const CLUSTERING: [string, string][] = [['q', 'Quantile'], ['e', 'Equidistant'], ['k', 'K-means']]
const POSITIONS: [string, string][] = [['top-left', 'Top left'], ['top-right', 'Top right'], ['bottom-left', 'Bottom left'], ['bottom-right', 'Bottom right']]
const ALIGN: [string, string][] = [['left', 'Left'], ['center', 'Center'], ['right', 'Right']]

/** The options as drawn (defaults filled), so fields show what is in effect. */
function shown(options: OptionProps['options']) {
  const parsed = ChoroplethOptionsSchema.safeParse(options)
  return parsed.success ? parsed.data : ChoroplethOptionsSchema.parse({})
}

function General({ options, columns, numeric, set }: OptionProps): JSX.Element {
  const o = shown(options)
  const map = findMap(o.mapType)
  const properties = map ? labelChoices(map.properties) : []
  return (
    <div className={grid}>
      <SelectField label={t.map} value={map?.id ?? o.mapType} choices={mapCatalogue().map((m) => [m.id, m.name] as const)}
        onChange={(v) => {
          set(['mapType'], v)
          // a property the new map lacks would match nothing
          if (v && !(o.targetField in (findMap(v)?.properties ?? {}))) set(['targetField'], 'name')
        }} />
      <SelectField label={t.targetField} value={map ? (o.targetField in map.properties ? o.targetField : map.propertyAliases[o.targetField] ?? o.targetField) : o.targetField}
        choices={properties} onChange={(v) => set(['targetField'], v)} />
      <SelectField label={t.keyColumn} value={o.keyColumn} choices={columnChoices(columns)} empty onChange={(v) => set(['keyColumn'], v)} />
      <SelectField label={t.valueColumn} value={o.valueColumn} choices={columnChoices(numeric.length ? numeric : columns)} empty onChange={(v) => set(['valueColumn'], v)} />
    </div>
  )
}

function Format({ options, set }: OptionProps): JSX.Element {
  const o = shown(options)
  return (
    <div className="flex flex-col gap-4">
      <div className={grid}>
        <NumberField label={t.steps} min={2} max={20} value={o.steps} onChange={(v) => set(['steps'], v)} />
        <SelectField label={t.clustering} value={o.clusteringMode} choices={CLUSTERING} onChange={(v) => set(['clusteringMode'], v)} />
        <TextField label={t.valueFormat} value={o.valueFormat} placeholder="0,0.00" onChange={(v) => set(['valueFormat'], v)} />
        <TextField label={t.placeholder} value={o.noValuePlaceholder} placeholder="N/A" onChange={(v) => set(['noValuePlaceholder'], v)} />
        <SelectField label={t.legendPosition} value={o.legend.position} choices={POSITIONS} onChange={(v) => set(['legend', 'position'], v)} />
        <SelectField label={t.legendAlign} value={o.legend.alignText} choices={ALIGN} onChange={(v) => set(['legend', 'alignText'], v)} />
      </div>
      <CheckField label={t.showLegend} checked={o.showLegend} onChange={(v) => set(['showLegend'], v)} />
      <CheckField label={t.tooltip} checked={o.tooltip.enabled} onChange={(v) => set(['tooltip', 'enabled'], v)} />
      <TextField label={t.tooltipTemplate} value={o.tooltip.template} placeholder="{{ @@name }}: {{ @@value }}" onChange={(v) => set(['tooltip', 'template'], v)} />
    </div>
  )
}

function Colors({ options, set }: OptionProps): JSX.Element {
  const o = shown(options)
  const fields = [['min', t.minColor], ['max', t.maxColor], ['noValue', t.noValueColor], ['borders', t.borders], ['background', t.background]] as const
  return (
    <div className={grid}>
      {fields.map(([key, label]) => (
        <TextField key={key} label={label} value={o.colors[key]} onChange={(v) => set(['colors', key], v)} />
      ))}
    </div>
  )
}

export function choroplethTabs(props: OptionProps): OptionTab[] {
  const tabs = queryTexts.visualizationEditor.tabs
  return [
    { id: 'general', label: tabs.general, content: <General {...props} /> },
    { id: 'format', label: tabs.format, content: <Format {...props} /> },
    { id: 'colors', label: tabs.colors, content: <Colors {...props} /> },
  ]
}

function Markers({ options, columns, numeric, set }: OptionProps): JSX.Element {
  const parsed = MarkersOptionsSchema.safeParse(options)
  const o = parsed.success ? parsed.data : MarkersOptionsSchema.parse({})
  const numbers = columnChoices(numeric.length ? numeric : columns)
  return (
    <div className="flex flex-col gap-4">
      <div className={grid}>
        <SelectField label={t.lat} value={o.latColumn} choices={numbers} onChange={(v) => set(['latColumn'], v)} />
        <SelectField label={t.lon} value={o.lonColumn} choices={numbers} onChange={(v) => set(['lonColumn'], v)} />
        <SelectField label={t.groupBy} value={o.classify ?? ''} choices={columnChoices(columns)} empty onChange={(v) => set(['classify'], v ?? null)} />
        <TextField label={t.tileUrl} value={o.mapTileUrl} onChange={(v) => set(['mapTileUrl'], v)} />
      </div>
      <CheckField label={t.cluster} checked={o.clusterMarkers} onChange={(v) => set(['clusterMarkers'], v)} />
      <CheckField label={t.tooltip} checked={o.tooltip.enabled} onChange={(v) => set(['tooltip', 'enabled'], v)} />
      <TextField label={t.tooltipTemplate} value={o.tooltip.template} placeholder="{{ column }}" onChange={(v) => set(['tooltip', 'template'], v)} />
    </div>
  )
}

export function markersTabs(props: OptionProps): OptionTab[] {
  return [{ id: 'general', label: queryTexts.visualizationEditor.tabs.general, content: <Markers {...props} /> }]
}
