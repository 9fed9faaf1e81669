/**
 * Choropleth as SVG: every feature of the chosen map a <path>, filled by its matched row's colour step (or the
 * no-value colour), with a <title> tooltip and a corner legend of the steps.
 */
import { geoPath } from 'd3-geo'
import { frameSvg, emptySvg } from '../frame.ts'
import { escapeHtml } from '../format/text.ts'
import { formatNumber } from '../format/number.ts'
import type { RenderEnv, Size } from '../types.ts'
import { findMap, resolveProperty, type MapEntry } from './catalogue.ts'
import type { ChoroplethData } from './choropleth.ts'
import { cornerLegend } from './corner-legend.ts'
import { mapFeatures, type MapFeature } from './geometry.ts'
import { fillTooltip, matchRegions } from './match.ts'
import type { ChoroplethOptions } from './options.ts'
import { awaitShapes } from './pending.ts'
import { boundsShape, clipToArea, fitAvoiding, fitShape } from './projection.ts'

const DEFAULT_TOOLTIP = '{{ @@name }}: {{ @@value }}'

/** The feature's properties as templates see them: its own, the established tool's names for them, and the value. */
function templateProperties(map: MapEntry, feature: MapFeature, property: string, value: string): Record<string, unknown> {
  const props: Record<string, unknown> = { ...feature.properties }
  for (const [alias, own] of Object.entries(map.propertyAliases)) if (!(alias in props)) props[alias] = props[own]
  props.name ??= props[property]
  props.value = value
  return props
}

export function renderChoropleth(data: ChoroplethData, options: ChoroplethOptions, size: Size, env: RenderEnv): string {
  const map = findMap(data.mapType)
  if (!map) return emptySvg(size, 'choropleth', `Unknown map: ${data.mapType}`)
  const features = mapFeatures(map.id)
  if (!features) return awaitShapes(map.id, size, 'choropleth', env, () => renderChoropleth(data, options, size, env))
  const property = resolveProperty(map, data.targetField)
  const matched = matchRegions(features, property, data.regions)
  const filled = matched.filter((m) => m.region).length
  return frameSvg(size, {
    label: `${map.name} map, ${filled} of ${features.length} regions with values`,
    type: 'choropleth',
    draw: (area) => {
      const legend = options.showLegend && (options.legend as { visible?: boolean }).visible !== false
        ? cornerLegend(data.legend, options.legend.position, area, options.legend.alignText)
        : null
      const fit = options.bounds ? boundsShape(options.bounds) : fitShape(features, map.projection === 'mercator')
      // a world map's corners are open sea, where the legend may sit; a country fills its box, so it moves aside
      const projection = fitAvoiding(map.projection, area, fit, options.bounds || map.projection === 'equal-earth' ? undefined : legend?.box)
      clipToArea(projection, area)
      const path = geoPath(projection).digits(1)
      const format = (v: number | null) => (v === null ? options.noValuePlaceholder : formatNumber(v, options.valueFormat))
      const template = options.tooltip.template.trim() || DEFAULT_TOOLTIP
      const regions = matched.map(({ feature, region }) => {
        const d = path(feature)
        if (!d) return ''
        const fill = region ? region.color : data.noValueColor
        const title = options.tooltip.enabled
          ? `<title>${escapeHtml(fillTooltip(template, region?.row ?? null, templateProperties(map, feature, property, format(region?.value ?? null))))}</title>`
          : ''
        return `<path class="sl-region${region ? ' sl-region-value' : ''}" d="${d}" fill="${escapeHtml(fill)}">${title}</path>`
      })
      const background = `<rect x="${area.x}" y="${area.y}" width="${area.width}" height="${area.height}" fill="${escapeHtml(options.colors.background)}"/>`
      return `${background}<g class="sl-regions" stroke="${escapeHtml(options.colors.borders)}" stroke-width="0.6" stroke-linejoin="round">${regions.join('')}</g>${legend?.svg ?? ''}`
    },
  })
}
