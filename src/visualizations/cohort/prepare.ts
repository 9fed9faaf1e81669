/**
 * Rows → a cohort grid: one row per cohort (its date and size), one column per stage, each cell the value and its
 * share of the cohort's size. Each input row is one (cohort, stage) cell: the date, the stage number, the cohort's
 * total and the value.
 */
import { toDate, toNumber } from '../data.ts'
import { formatPattern } from '../../shared/time.ts'
import type { DataSet } from '../types.ts'
import type { CohortOptions } from './options.ts'

export interface CohortCell {
  value: number
  /** value / total (1 = 100%); null when the cohort has no size. */
  share: number | null
}

export interface CohortData {
  stages: number[]
  cohorts: { label: string; total: number | null; cells: (CohortCell | null)[] }[]
  /** Cohorts (the oldest) and stages (the last) left out past the limits. */
  omitted: { cohorts: number; stages: number }
}

/** A grid larger than this is not readable; the newest cohorts and first stages are kept. */
export const MAX_COHORTS = 200
export const MAX_STAGES = 60

const LABEL = { daily: 'YYYY-MM-DD', weekly: 'YYYY-MM-DD', monthly: 'MMM YYYY' }

/** Whole intervals from `from` to `to`. */
export function intervalsBetween(from: number, to: number, interval: CohortOptions['timeInterval']): number {
  if (interval === 'monthly') {
    const a = new Date(from)
    const b = new Date(to)
    return (b.getUTCFullYear() - a.getUTCFullYear()) * 12 + b.getUTCMonth() - a.getUTCMonth()
  }
  return Math.floor((to - from) / (interval === 'weekly' ? 7 : 1) / 86_400_000)
}

export function prepareCohort(options: CohortOptions, data: DataSet): CohortData {
  const cohorts = new Map<number, { total: number | null; values: Map<number, number> }>()
  const stageSet = new Set<number>()
  for (const row of data.rows) {
    const date = toDate(row[options.dateColumn])
    const stage = toNumber(row[options.stageColumn])
    if (!date || stage === null) continue
    let cohort = cohorts.get(date.getTime())
    if (!cohort) cohorts.set(date.getTime(), (cohort = { total: null, values: new Map() }))
    cohort.total ??= toNumber(row[options.totalColumn])
    const value = toNumber(row[options.valueColumn])
    if (value !== null) cohort.values.set(stage, (cohort.values.get(stage) ?? 0) + value)
    stageSet.add(Math.round(stage))
  }
  const all = [...cohorts.keys()].sort((a, b) => a - b)
  if (!all.length) return { stages: [], cohorts: [], omitted: { cohorts: 0, stages: 0 } }
  const dates = all.slice(-MAX_COHORTS)
  let stages = [...stageSet].sort((a, b) => a - b)
  const first = stages[0]
  const last = dates[dates.length - 1]
  if (options.mode === 'diagonal') {
    // the oldest cohort could have reached this many stages by the latest date
    const reach = first + intervalsBetween(dates[0], last, options.timeInterval)
    const top = Math.max(stages[stages.length - 1], reach)
    stages = Array.from({ length: top - first + 1 }, (_, i) => first + i)
  }
  const stageCount = stages.length
  stages = stages.slice(0, MAX_STAGES)
  return {
    omitted: { cohorts: all.length - dates.length, stages: stageCount - stages.length },
    stages,
    cohorts: dates.map((time) => {
      const cohort = cohorts.get(time)!
      const reach = first + intervalsBetween(time, last, options.timeInterval)
      const cells = stages.map((stage): CohortCell | null => {
        let value = cohort.values.get(stage)
        if (value === undefined && options.mode === 'diagonal' && stage <= reach) value = 0
        if (value === undefined) return null
        return { value, share: cohort.total ? value / cohort.total : null }
      })
      return { label: formatPattern(new Date(time), LABEL[options.timeInterval]), total: cohort.total, cells }
    }),
  }
}
