/**
 * How every chart's axes look: no tick marks (the grid carries them), muted labels, and titles placed where they
 * never collide with tick labels: the x title under the labels at the right, the y title above the axis at the top.
 */
import { MUTED_TEXT } from '../theme.ts'

const BASE = { tickSize: 0, tickPadding: 6, fill: MUTED_TEXT, labelArrow: 'none' as const }

/** Room under an x axis for its labels (`labels` pixels) and its title. */
export function bottomMargin(labels: number, title: string | null | undefined): number {
  return labels + (title ? 18 : 0)
}

/** Room above the plot for the y title. */
export function topMargin(title: string | null | undefined): number {
  return title ? 22 : 12
}

/** Options for an x axis along the bottom with `margin` pixels under it. */
export function xAxisStyle(title: string | null | undefined, margin: number) {
  return { ...BASE, label: title || null, labelAnchor: 'right' as const, labelOffset: margin - 4 }
}

/** Options for a y axis, its title above the axis at the top. */
export function yAxisStyle(title: string | null | undefined) {
  return { ...BASE, label: title || null, labelAnchor: 'top' as const }
}
