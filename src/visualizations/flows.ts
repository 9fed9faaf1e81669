/**
 * Path-shaped rows shared by the Sankey and Sunburst types: each row is a path through stages (stage1 → stage2 →
 * …, ending at its first empty stage) with a weight. Which columns are stages and which is the weight, when the
 * options do not say, follows the established tool's fixed names (stage1…, value).
 */
import { columnKind, toNumber, valueKey } from './data.ts'
import type { DataSet } from './types.ts'

export interface Path {
  steps: string[]
  weight: number
}

/** The stage columns and the weight column for `data`. */
export function flowColumns(data: DataSet, stageColumns: string[], valueColumn: string): { stages: string[]; value: string | null } {
  const names = data.columns.map((c) => c.name)
  let stages = stageColumns.filter((n) => names.includes(n))
  let value: string | null = names.includes(valueColumn) ? valueColumn : null
  if (!value) {
    value = names.find((n) => n.toLowerCase() === 'value') ??
      [...data.columns].reverse().find((c) => !stages.includes(c.name) && columnKind(c, data.rows) === 'number')?.name ?? null
  }
  if (!stages.length) {
    const numbered = names.filter((n) => /^stage\d+$/i.test(n)).sort((a, b) => Number(a.slice(5)) - Number(b.slice(5)))
    stages = numbered.length ? numbered : data.columns.filter((c) => c.name !== value && columnKind(c, data.rows) !== 'number').map((c) => c.name)
  }
  return { stages, value }
}

/** Each row's path (up to its first empty stage) and weight; rows with no first stage or no positive weight are skipped. */
export function readPaths(data: DataSet, stages: string[], value: string | null): Path[] {
  const paths: Path[] = []
  for (const row of data.rows) {
    const weight = value ? toNumber(row[value]) : 1
    if (weight === null || weight <= 0) continue
    const steps: string[] = []
    for (const stage of stages) {
      const v = row[stage]
      if (v == null || v === '') break
      steps.push(valueKey(v))
    }
    if (steps.length) paths.push({ steps, weight })
  }
  return paths
}
