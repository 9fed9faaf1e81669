/**
 * Rows → a flow graph: a node per (stage, value), a link per consecutive pair of stages, weights added up. The
 * smallest nodes of a stage past `nodeLimit` become one "Other" node, so a result with thousands of distinct values
 * stays a readable diagram (and a fast layout).
 */
import { flowColumns, readPaths } from '../flows.ts'
import type { DataSet } from '../types.ts'
import type { SankeyOptions } from './options.ts'

export interface SankeyNode {
  /** `stage:name`, so one name at two stages is two nodes and the graph has no cycles. */
  id: string
  name: string
  stage: number
}

export interface SankeyLink {
  source: string
  target: string
  value: number
}

export interface SankeyData {
  nodes: SankeyNode[]
  links: SankeyLink[]
  /** Node names in first-seen order: one colour per name, whatever the stage. */
  names: string[]
}

export function prepareSankey(options: SankeyOptions, data: DataSet): SankeyData {
  const { stages, value } = flowColumns(data, options.stageColumns, options.valueColumn)
  const paths = readPaths(data, stages, value)
  // the size of each (stage, name), to decide which names survive the limit
  const sizes = stages.map(() => new Map<string, number>())
  for (const p of paths) p.steps.forEach((name, i) => sizes[i].set(name, (sizes[i].get(name) ?? 0) + p.weight))
  const kept = sizes.map((m) => new Set([...m].sort((a, b) => b[1] - a[1]).slice(0, options.nodeLimit - 1).map(([n]) => n)))
  const rename = (name: string, stage: number) =>
    sizes[stage].size <= options.nodeLimit || kept[stage].has(name) ? name : 'Other'
  const nodes = new Map<string, SankeyNode>()
  const links = new Map<string, SankeyLink>()
  const names: string[] = []
  for (const p of paths) {
    let previous: string | null = null
    p.steps.forEach((raw, stage) => {
      const name = rename(raw, stage)
      const id = `${stage}:${name}`
      if (!nodes.has(id)) nodes.set(id, { id, name, stage })
      if (!names.includes(name)) names.push(name)
      if (previous) {
        const key = `${previous}\u0000${id}`
        const link = links.get(key)
        if (link) link.value += p.weight
        else links.set(key, { source: previous, target: id, value: p.weight })
      }
      previous = id
    })
  }
  // a node on no link (a path of one stage) has no flow to draw
  const linked = new Set([...links.values()].flatMap((l) => [l.source, l.target]))
  return { nodes: [...nodes.values()].filter((n) => linked.has(n.id)), links: [...links.values()], names }
}
