/** One point of a cartesian series, as prepared for drawing. */
export interface ChartPoint {
  /** Epoch milliseconds on a time axis, a number on linear/log axes, the category's label otherwise. */
  x: number | string
  /** The value as given; null where it is missing and not drawn as zero. */
  y: number | null
  /** Bottom and top after stacking (top = y and bottom = 0 when not stacked; percentages when `percent`). */
  y1: number
  y2: number
  size: number | null
  error: number | null
}
