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
  // nodes by stage and name, links by source and target node: no key strings built per row
  const byStage = stages.map(() => new Map<string, SankeyNode>())
  const nodes: SankeyNode[] = []
  const outgoing = new Map<SankeyNode, Map<SankeyNode, SankeyLink>>()
  const names: string[] = []
  const named = new Set<string>()
  for (const p of paths) {
    let previous: SankeyNode | null = null
    for (let stage = 0; stage < p.steps.length; stage++) {
      const name = rename(p.steps[stage], stage)
      let node = byStage[stage].get(name)
      if (!node) {
        node = { id: `${stage}:${name}`, name, stage }
        byStage[stage].set(name, node)
        nodes.push(node)
        if (!named.has(name)) {
          named.add(name)
          names.push(name)
        }
      }
      if (previous) {
        let targets = outgoing.get(previous)
        if (!targets) outgoing.set(previous, (targets = new Map()))
        const link = targets.get(node)
        if (link) link.value += p.weight
        else targets.set(node, { source: previous.id, target: node.id, value: p.weight })
      }
      previous = node
    }
  }
  const links = [...outgoing.values()].flatMap((targets) => [...targets.values()])
  // a node on no link (a path of one stage) has no flow to draw
  const linked = new Set(links.flatMap((l) => [l.source, l.target]))
  return { nodes: nodes.filter((n) => linked.has(n.id)), links, names }
}
