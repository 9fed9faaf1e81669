/**
 * Rows → a tree of paths: each row's path (stages, or a sequence split by its separator) adds its weight to the
 * node it ends at. A node's size is its own weight plus its children's.
 */
import { flowColumns, readPaths, type Path } from '../flows.ts'
import { toNumber, valueKey } from '../data.ts'
import type { DataSet } from '../types.ts'
import type { SunburstOptions } from './options.ts'

export interface TreeNode {
  name: string
  /** Weight of the paths ending here. */
  own: number
  children: TreeNode[]
}

export interface SunburstData {
  root: TreeNode
  total: number
  depth: number
}

function sequencePaths(data: DataSet, column: string, separator: string, value: string | null): Path[] {
  const paths: Path[] = []
  for (const row of data.rows) {
    const weight = value ? toNumber(row[value]) : 1
    const text = row[column]
    if (weight === null || weight <= 0 || text == null) continue
    const steps: string[] = []
    for (const part of valueKey(text).split(separator)) {
      const step = part.trim()
      if (step) steps.push(step)
    }
    if (steps.length) paths.push({ steps, weight })
  }
  return paths
}

export function prepareSunburst(options: SunburstOptions, data: DataSet): SunburstData {
  const names = data.columns.map((c) => c.name)
  const sequence = names.includes(options.sequenceColumn) ? options.sequenceColumn : names.find((n) => n.toLowerCase() === 'sequence')
  const { stages, value } = flowColumns(data, options.stageColumns, options.valueColumn)
  const paths = sequence && !options.stageColumns.length
    ? sequencePaths(data, sequence, options.separator, value)
    : readPaths(data, stages, value)
  const root: TreeNode = { name: 'root', own: 0, children: [] }
  // each node's children by name, kept beside the tree so the prepared data stays plain
  const index = new Map<TreeNode, Map<string, TreeNode>>([[root, new Map()]])
  let total = 0
  let depth = 0
  for (const p of paths) {
    let node = root
    for (const step of p.steps) {
      const kids = index.get(node)!
      let child = kids.get(step)
      if (!child) {
        child = { name: step, own: 0, children: [] }
        kids.set(step, child)
        index.set(child, new Map())
        node.children.push(child)
      }
      node = child
    }
    node.own += p.weight
    total += p.weight
    depth = Math.max(depth, p.steps.length)
  }
  return { root, total, depth }
}
