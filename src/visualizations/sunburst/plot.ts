/**
 * The sunburst as SVG: d3-hierarchy's partition lays the tree out as rings (angle = share, ring = depth), each
 * first-level branch gets a palette colour and its descendants lighter tints of it. Arcs too thin to see are left
 * out, so very wide trees stay fast; the total sits in the middle.
 */
import { hierarchy, partition, type HierarchyRectangularNode } from 'd3-hierarchy'
import { formatNumber } from '../format/number.ts'
import { escapeHtml, textWidth, truncate } from '../format/text.ts'
import { emptySvg, frameSvg } from '../frame.ts'
import { arcCentroid, arcPath } from '../marks/arc.ts'
import { contrastText, MUTED_TEXT, seriesColor, TEXT_COLOR } from '../theme.ts'
import type { RenderEnv, Size } from '../types.ts'
import type { SunburstOptions } from './options.ts'
import type { SunburstData, TreeNode } from './prepare.ts'

const MIN_ANGLE = 0.004
const MAX_RINGS = 8

/** `color` mixed with white: 0 is the colour, 1 is white. */
function tint(color: string, amount: number): string {
  const mix = (i: number) => {
    const c = parseInt(color.slice(i, i + 2), 16)
    return Math.round(c + (255 - c) * amount).toString(16).padStart(2, '0')
  }
  return `#${mix(1)}${mix(3)}${mix(5)}`
}

export function sunburstSvg(data: SunburstData, options: SunburstOptions, size: Size, _env: RenderEnv): string {
  if (!data.total) return emptySvg(size, 'sunburst')
  const rings = Math.min(data.depth, MAX_RINGS)
  const root = hierarchy<TreeNode>(data.root, (d) => d.children)
    .sum((d) => d.own)
    .sort((a, b) => (b.value ?? 0) - (a.value ?? 0))
  const tops = root.children ?? []
  const colors = new Map(tops.map((t, i) => [t.data.name, seriesColor(i)]))
  return frameSvg(size, {
    label: `Sunburst of ${tops.length} branches`,
    type: 'sunburst',
    legend: tops.slice(0, 30).map((t) => ({ label: t.data.name, color: colors.get(t.data.name)! })),
    placement: size.width >= size.height * 1.2 ? 'right' : 'top',
    draw: (area) => {
      const radius = Math.max(20, Math.min(area.width, area.height) / 2 - 6)
      const cx = area.x + area.width / 2
      const cy = area.y + area.height / 2
      const hole = radius / (rings + 1)
      const ring = (radius - hole) / rings
      const laid = partition<TreeNode>().size([2 * Math.PI, rings + 1])(root)
      const parts: string[] = []
      const labels: string[] = []
      for (const node of laid.descendants() as HierarchyRectangularNode<TreeNode>[]) {
        if (!node.depth || node.depth > rings || node.x1 - node.x0 < MIN_ANGLE) continue
        const top = node.ancestors().find((a) => a.depth === 1)!
        const fill = tint(colors.get(top.data.name)!, Math.min(0.7, (node.depth - 1) * 0.18))
        const inner = hole + (node.depth - 1) * ring
        const path = node.ancestors().reverse().slice(1).map((a) => a.data.name).join(' → ')
        const tip = `${path}: ${formatNumber(node.value ?? 0, options.numberFormat)} (${formatNumber((node.value ?? 0) / data.total, '0.[0]%')})`
        parts.push(`<path class="sl-arc" d="${arcPath(cx, cy, inner, inner + ring - 0.5, node.x0, node.x1)}" fill="${fill}" stroke="#fff" stroke-width="0.75"><title>${escapeHtml(tip)}</title></path>`)
        const mid = inner + ring / 2
        const room = (node.x1 - node.x0) * mid - 6
        if (ring >= 14 && room >= 28) {
          const text = truncate(node.data.name, Math.min(room, ring * 2.2), 10)
          if (textWidth(text, 10) <= room) {
            const [x, y] = arcCentroid(cx, cy, mid, node.x0, node.x1)
            labels.push(`<text x="${x.toFixed(1)}" y="${(y + 3.5).toFixed(1)}" text-anchor="middle" font-size="10" fill="${contrastText(fill)}">${escapeHtml(text)}</text>`)
          }
        }
      }
      const center = `<text x="${cx}" y="${cy}" text-anchor="middle" font-size="${Math.max(11, Math.min(20, hole / 2.5)).toFixed(0)}" font-weight="600" fill="${TEXT_COLOR}">${escapeHtml(formatNumber(data.total, '0.[0]a'))}</text>` +
        `<text x="${cx}" y="${cy + 14}" text-anchor="middle" fill="${MUTED_TEXT}">Total</text>`
      return `<g class="sl-sunburst">${parts.join('')}${labels.join('')}${hole > 30 ? center : ''}</g>`
    },
  })
}
