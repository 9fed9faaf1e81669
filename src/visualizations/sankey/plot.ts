/**
 * The Sankey diagram as SVG: d3-sankey places the nodes and links in the drawing area, and Plot draws them with
 * identity scales: links as wide translucent curves coloured by their source, nodes as bars, names beside them.
 */
import * as Plot from '@observablehq/plot'
import { sankey, sankeyLeft } from 'd3-sankey'
import { formatNumber } from '../format/number.ts'
import { truncate } from '../format/text.ts'
import { emptySvg, frameSvg, placePlot } from '../frame.ts'
import { PLOT_STYLE, seriesColor, TEXT_COLOR } from '../theme.ts'
import type { RenderEnv, Size } from '../types.ts'
import type { SankeyOptions } from './options.ts'
import type { SankeyData, SankeyLink, SankeyNode } from './prepare.ts'

const NODE_WIDTH = 12
const LABEL = 110

/** Node and link positions in a `width` × `height` box, room kept on the right for the last stage's names. */
export function layoutSankey(data: SankeyData, width: number, height: number) {
  const layout = sankey<SankeyNode, SankeyLink>()
    .nodeId((n) => n.id)
    .nodeAlign(sankeyLeft)
    .nodeWidth(NODE_WIDTH)
    .nodePadding(Math.max(4, Math.min(14, height / Math.max(1, data.nodes.length))))
    .extent([[1, 6], [Math.max(NODE_WIDTH + 2, width - LABEL), height - 6]])
    .iterations(data.nodes.length > 200 ? 2 : 6)
  // d3-sankey writes into the objects it is given: hand it copies so prepared data stays pure
  return layout({ nodes: data.nodes.map((n) => ({ ...n })), links: data.links.map((l) => ({ ...l })) })
}

export function sankeySvg(data: SankeyData, options: SankeyOptions, size: Size, env: RenderEnv): string {
  if (!data.links.length) return emptySvg(size, 'sankey')
  const color = new Map(data.names.map((n, i) => [n, seriesColor(i)]))
  const fmt = (v: number) => formatNumber(v, options.numberFormat)
  return frameSvg(size, {
    label: `Sankey diagram of ${data.nodes.length} nodes`,
    type: 'sankey',
    draw: (area) => {
      const graph = layoutSankey(data, area.width, area.height)
      const maxStage = Math.max(...graph.nodes.map((n) => n.depth))
      const links = graph.links.map((l) => ({
        x1: l.source.x1, x2: l.target.x0, y1: l.y0, y2: l.y1, width: Math.max(1, l.width),
        color: color.get(l.source.name)!, title: `${l.source.name} → ${l.target.name}: ${fmt(l.value)}`,
      }))
      const nodes = graph.nodes.map((n) => {
        const room = n.depth === maxStage ? LABEL - 10 : Math.max(40, (area.width - LABEL) / (maxStage + 1) - NODE_WIDTH - 16)
        return {
          ...n, color: color.get(n.name)!, title: `${n.name}: ${fmt(n.value)}`,
          label: n.y1 - n.y0 >= 8 ? truncate(n.name, room, 11) : '',
        }
      })
      const plot = Plot.plot({
        document: env.document,
        width: area.width, height: area.height, margin: 0,
        style: PLOT_STYLE,
        x: { type: 'identity', axis: null }, y: { type: 'identity', axis: null },
        marks: [
          Plot.link(links, { x1: 'x1', x2: 'x2', y1: 'y1', y2: 'y2', stroke: 'color', strokeOpacity: 0.35, strokeWidth: 'width', curve: 'bump-x', title: 'title' }),
          Plot.rect(nodes, { x1: 'x0', x2: 'x1', y1: 'y0', y2: 'y1', fill: 'color', title: 'title' }),
          Plot.text(nodes, { x: 'x1', y: (n) => (n.y0 + n.y1) / 2, dx: 6, text: 'label', textAnchor: 'start', fill: TEXT_COLOR }),
        ],
      }) as unknown as Element
      return placePlot(plot, area)
    },
  })
}
