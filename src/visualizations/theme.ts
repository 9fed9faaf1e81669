/**
 * The look every visualization shares: one font stack, one text colour, a muted grid and categorical palettes.
 * Kept in one place so charts, tables and counters read as one product.
 */
import { z } from 'zod'

export const FONT_FAMILY = 'system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif'
export const FONT_SIZE = 11
export const TEXT_COLOR = '#374151'
export const MUTED_TEXT = '#6b7280'
export const GRID_COLOR = '#e5e7eb'
export const BACKGROUND = '#ffffff'
/** Drawn where a value is missing (null cells, no-data map regions). */
export const EMPTY_COLOR = '#f3f4f6'

export const PALETTES = {
  tableau10: ['#4e79a7', '#f28e2c', '#e15759', '#76b7b2', '#59a14f', '#edc949', '#af7aa1', '#ff9da7', '#9c755f', '#bab0ab'],
  observable10: ['#4269d0', '#efb118', '#ff725c', '#6cc5b0', '#3ca951', '#ff8ab7', '#a463f2', '#97bbf5', '#9c6b4e', '#9498a0'],
  category10: ['#1f77b4', '#ff7f0e', '#2ca02c', '#d62728', '#9467bd', '#8c564b', '#e377c2', '#7f7f7f', '#bcbd22', '#17becf'],
} as const

export type PaletteName = keyof typeof PALETTES

export const PaletteSchema = z.enum(Object.keys(PALETTES) as [PaletteName, ...PaletteName[]])

/**
 * A colour as options may hold it: hex, a CSS name or rgb()/hsl(). The character set is narrow on purpose: the
 * value ends up inside SVG and HTML attributes.
 */
export const ColorSchema = z.string().regex(/^(#[0-9a-fA-F]{3,8}|[a-zA-Z]{3,30}|(rgb|hsl)a?\([0-9.,%\s]+\))$/, 'Invalid colour')

/** The colour of the `index`-th series: its own colour when set, else the palette's, cycling. */
export function seriesColor(index: number, palette: PaletteName = 'tableau10', own?: string): string {
  if (own) return own
  const colors = PALETTES[palette] ?? PALETTES.tableau10
  return colors[index % colors.length]
}

/** Plot's `style` option: the font, size and text colour every chart uses. */
export const PLOT_STYLE = {
  fontFamily: FONT_FAMILY,
  fontSize: `${FONT_SIZE}px`,
  color: TEXT_COLOR,
  background: 'transparent',
  overflow: 'visible',
}

/** A sequential ramp from a pale tint to `color`, for heatmaps, cohorts and choropleths. */
export function rampColor(t: number, color = '#4e79a7'): string {
  const clamped = Math.max(0, Math.min(1, Number.isFinite(t) ? t : 0))
  if (!/^#[0-9a-fA-F]{6}$/.test(color)) color = '#4e79a7'
  const [r, g, b] = [1, 3, 5].map((i) => parseInt(color.slice(i, i + 2), 16))
  const mix = (c: number) => Math.round(247 + (c - 247) * (0.08 + 0.92 * clamped))
  return `rgb(${mix(r)}, ${mix(g)}, ${mix(b)})`
}

/** Black or white, whichever reads better on `rgb(...)` or `#rrggbb` background. */
export function contrastText(background: string): string {
  const parts = background.startsWith('#')
    ? [1, 3, 5].map((i) => parseInt(background.slice(i, i + 2), 16))
    : (background.match(/\d+/g) ?? ['255', '255', '255']).slice(0, 3).map(Number)
  const luminance = (0.299 * parts[0] + 0.587 * parts[1] + 0.114 * parts[2]) / 255
  return luminance > 0.6 ? '#111827' : '#ffffff'
}

/** The colour of band `t` (0..1) between two #rrggbb colours, in `steps` bands. */
export function bandColor(t: number, min: string, max: string, steps: number): string {
  const band = Math.min(steps - 1, Math.max(0, Math.floor(t * steps)))
  const k = steps > 1 ? band / (steps - 1) : 1
  const channel = (i: number) => {
    const a = parseInt(min.slice(i, i + 2), 16)
    const b = parseInt(max.slice(i, i + 2), 16)
    return Math.round(a + (b - a) * k).toString(16).padStart(2, '0')
  }
  return `#${channel(1)}${channel(3)}${channel(5)}`
}
