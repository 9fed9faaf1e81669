/**
 * Map options, named as in the established tool: `CHOROPLETH` shades regions of a map from the catalogue by a
 * value, `MAP` puts markers at latitude/longitude. Map ids and feature properties are the catalogue's
 * (catalogue.ts), which also accepts the established tool's names for them.
 */
import { z } from 'zod'
import { ColorSchema } from '../theme.ts'

const Hex = z.string().regex(/^#[0-9a-fA-F]{6}$/, 'Colours here are #rrggbb')
const Template = z.looseObject({ enabled: z.boolean().default(true), template: z.string().max(5000).default('') }).prefault({})
const Bounds = z.tuple([z.tuple([z.number(), z.number()]), z.tuple([z.number(), z.number()])]).nullable().default(null)

/** Catalogue ids look like `countries`, `usa`, `japan/prefectures`; the catalogue itself checks which exist. */
export const MapTypeSchema = z.string().regex(/^[a-z0-9_-]+(\/[a-z0-9_-]+)*$/i, 'Unknown map').max(100)

export const ChoroplethOptionsSchema = z.looseObject({
  mapType: MapTypeSchema.default('countries'),
  keyColumn: z.string().default(''),
  /** The map feature property the key is matched against (e.g. iso_a3, name). */
  targetField: z.string().max(100).default('name'),
  valueColumn: z.string().default(''),
  /** How values are split into colour steps: quantiles, equal intervals or k-means clusters. */
  clusteringMode: z.enum(['q', 'e', 'k']).default('e'),
  steps: z.number().int().min(2).max(20).default(5),
  valueFormat: z.string().max(50).default('0,0.00'),
  noValuePlaceholder: z.string().max(50).default('N/A'),
  showLegend: z.boolean().default(true),
  legend: z.looseObject({
    position: z.enum(['top-left', 'top-right', 'bottom-left', 'bottom-right']).default('bottom-left'),
    alignText: z.enum(['left', 'center', 'right']).default('right'),
  }).prefault({}),
  tooltip: Template,
  popup: Template,
  colors: z.looseObject({
    min: Hex.default('#cfe0f7'),
    max: Hex.default('#1f4e8c'),
    background: ColorSchema.default('#ffffff'),
    borders: ColorSchema.default('#ffffff'),
    noValue: ColorSchema.default('#e5e7eb'),
  }).prefault({}),
  bounds: Bounds,
})

export const MarkersOptionsSchema = z.looseObject({
  latColumn: z.string().default('lat'),
  lonColumn: z.string().default('lon'),
  /** A column whose values group markers, one colour per group. */
  classify: z.string().nullable().default(null),
  groups: z.record(z.string(), z.looseObject({ color: ColorSchema.optional() })).default({}),
  /** Tile server URL template; http(s) or protocol-relative only. */
  mapTileUrl: z.string().max(500).regex(/^(https?:)?\/\/[^\s"'<>]+$/, 'Tile URL must be http(s)').default('//{s}.tile.openstreetmap.org/{z}/{x}/{y}.png'),
  clusterMarkers: z.boolean().default(true),
  customizeMarkers: z.boolean().default(false),
  iconShape: z.enum(['marker', 'rectangle', 'circle', 'rectangle-dot', 'circle-dot', 'doughnut']).default('marker'),
  iconFont: z.string().max(50).default('circle'),
  foregroundColor: ColorSchema.default('#ffffff'),
  backgroundColor: ColorSchema.default('#4e79a7'),
  borderColor: ColorSchema.default('#4e79a7'),
  bounds: Bounds,
  tooltip: Template,
  popup: Template,
})

export type ChoroplethOptions = z.infer<typeof ChoroplethOptionsSchema>
export type MarkersOptions = z.infer<typeof MarkersOptionsSchema>
