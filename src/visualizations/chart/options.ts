/**
 * Chart options, with the established tool's option names so its saved charts carry over: `globalSeriesType`,
 * `columnMapping`, `seriesOptions`, `xAxis`, `yAxis`, `legend`, `series.stacking`, `numberFormat` …
 * Unknown keys are kept (charts saved by the established tool carry many), known keys are checked.
 */
import { z } from 'zod'
import { ColorSchema, PaletteSchema } from '../theme.ts'

export const SERIES_TYPES = ['line', 'column', 'bar', 'area', 'pie', 'donut', 'scatter', 'bubble', 'heatmap', 'box'] as const
/** The types that can be mixed in one chart, per series, on shared axes. */
export const CARTESIAN_TYPES = ['line', 'column', 'bar', 'area', 'scatter', 'bubble'] as const

export type SeriesType = (typeof SERIES_TYPES)[number]
export type CartesianType = (typeof CARTESIAN_TYPES)[number]

/** What a column is for; `zVal` is the heatmap's value, named as in the established tool. */
export const ColumnRoleSchema = z.enum(['x', 'y', 'series', 'size', 'yError', 'zVal', 'unused'])

const Title = z.looseObject({ text: z.string().default('') }).prefault({})
const Bound = z.number().nullable().default(null)

export const XAxisSchema = z.looseObject({
  /** `-` picks from the data: dates → datetime, numbers → linear, anything else → category. */
  type: z.enum(['-', 'linear', 'logarithmic', 'category', 'datetime']).default('-'),
  labels: z.looseObject({ enabled: z.boolean().default(true) }).prefault({}),
  title: Title,
})

export const YAxisSchema = z.looseObject({
  type: z.enum(['-', 'linear', 'logarithmic', 'category', 'datetime']).default('linear'),
  title: Title,
  rangeMin: Bound,
  rangeMax: Bound,
  opposite: z.boolean().default(false),
})

export const SeriesOptionSchema = z.looseObject({
  /** The established tool writes the global type here too (even `pie`); only cartesian types change a series. */
  type: z.enum(SERIES_TYPES).optional(),
  color: ColorSchema.optional(),
  /** 0: the left axis, 1: the right one. */
  yAxis: z.union([z.literal(0), z.literal(1)]).default(0),
  name: z.string().optional(),
  /** Drawing order among series; lower first. */
  zIndex: z.number().optional(),
})

export const ChartOptionsSchema = z.looseObject({
  globalSeriesType: z.enum(SERIES_TYPES).default('column'),
  columnMapping: z.record(z.string(), ColumnRoleSchema).default({}),
  seriesOptions: z.record(z.string(), SeriesOptionSchema).default({}),
  /** Per-category colours for pie slices. */
  valuesOptions: z.record(z.string(), z.looseObject({ color: ColorSchema.optional() })).default({}),
  xAxis: XAxisSchema.prefault({}),
  yAxis: z.array(YAxisSchema).max(2).prefault([{}, { opposite: true }]),
  legend: z.looseObject({
    enabled: z.boolean().default(true),
    placement: z.enum(['auto', 'top', 'below', 'right']).default('auto'),
  }).prefault({}),
  series: z.looseObject({
    stacking: z.enum(['stack', 'percent']).nullable().default(null),
    /** The established tool's "normalize to percentage" switch: the same as `stacking: 'percent'`. */
    percentValues: z.boolean().default(false),
  }).prefault({}),
  /** Draws columns as horizontal bars (the established tool's switch; `bar` does the same). */
  swappedAxes: z.boolean().default(false),
  numberFormat: z.string().max(50).default('0,0[.]00'),
  percentFormat: z.string().max(50).default('0[.]00%'),
  dateTimeFormat: z.string().max(50).default('YYYY-MM-DD HH:mm'),
  /** true: a series with no value at some x is drawn as 0 there; false: a gap. */
  missingValuesAsZero: z.boolean().default(true),
  sortX: z.boolean().default(true),
  showDataLabels: z.boolean().default(false),
  palette: PaletteSchema.default('tableau10'),
  /** The hole of a donut as a share of its radius. */
  holeSize: z.number().min(0).max(0.9).default(0.55),
  /** Bubble sizes: `diameter` scales the size column to the radius, `area` to the area. */
  sizemode: z.enum(['diameter', 'area']).default('area'),
  coefficient: z.number().positive().default(1),
})

export type ChartOptions = z.infer<typeof ChartOptionsSchema>
