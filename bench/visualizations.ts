/**
 * How long each visualization type takes to render on the server: 10,000 rows (median of 5 runs after a warm-up;
 * the target is under 100 ms) and 100,000 rows (median of 3; past 20,000 points data is thinned, so this must stay
 * bounded rather than hang). Synthetic rows with a fixed seed; run with `npx tsx bench/visualizations.ts`, or
 * `npx tsx bench/visualizations.ts sankey` for the types whose name contains a word.
 */
import '../src/visualizations/map/geo.server.ts'
import { renderVisualizationSvg } from '../src/visualizations/render.server.ts'
import { seededRandom } from '../src/visualizations/sample.ts'
import type { DataColumn, Row } from '../src/visualizations/types.ts'

interface Case {
  name: string
  vis: { type: string; options: Record<string, unknown> }
  columns: DataColumn[]
  row(i: number, random: () => number): Row
}

const HOUR = 3_600_000
const START = Date.UTC(2020, 0, 1)
const WORDS = 'alpha beta gamma delta epsilon zeta eta theta iota kappa lambda omicron sigma tau upsilon omega'.split(' ')
const chart = (globalSeriesType: string, columnMapping: Record<string, string>, extra: Record<string, unknown> = {}) =>
  ({ type: 'CHART', options: { globalSeriesType, columnMapping, ...extra } })
const series = [{ name: 't', type: 'datetime' }, { name: 'v', type: 'float' }, { name: 's', type: 'string' }]
const timeRow = (i: number, random: () => number) => ({ t: new Date(START + i * HOUR).toISOString(), v: Math.sin(i / 300) * 100 + random() * 20, s: `s${i % 2}` })

const CASES: Case[] = [
  { name: 'chart: line', vis: chart('line', { t: 'x', v: 'y' }), columns: series, row: timeRow },
  { name: 'chart: column', vis: chart('column', { t: 'x', v: 'y' }), columns: series, row: timeRow },
  { name: 'chart: stacked area', vis: chart('area', { t: 'x', v: 'y', s: 'series' }, { series: { stacking: 'stack' } }), columns: series, row: (i, r) => timeRow(Math.floor(i / 2), r) },
  { name: 'chart: bar (categories)', vis: chart('bar', { c: 'x', v: 'y' }), columns: [{ name: 'c', type: 'string' }, { name: 'v', type: 'float' }], row: (i, r) => ({ c: `Category ${i}`, v: r() * 100 - 20 }) },
  { name: 'chart: scatter', vis: chart('scatter', { x: 'x', v: 'y', s: 'series' }), columns: [{ name: 'x', type: 'float' }, ...series.slice(1)], row: (i, r) => ({ x: r() * 1000, v: r() * 50, s: `s${i % 3}` }) },
  { name: 'chart: bubble', vis: chart('bubble', { x: 'x', v: 'y', z: 'size' }), columns: [{ name: 'x', type: 'float' }, { name: 'v', type: 'float' }, { name: 'z', type: 'float' }], row: (_, r) => ({ x: r() * 1000, v: r() * 50, z: r() * 10 }) },
  { name: 'chart: pie', vis: chart('pie', { c: 'x', v: 'y' }), columns: [{ name: 'c', type: 'string' }, { name: 'v', type: 'float' }], row: (i, r) => ({ c: `Slice ${i % 50}`, v: r() * 10 }) },
  { name: 'chart: heatmap', vis: chart('heatmap', { a: 'x', b: 'y', v: 'zVal' }), columns: [{ name: 'a', type: 'integer' }, { name: 'b', type: 'integer' }, { name: 'v', type: 'float' }], row: (i, r) => ({ a: i % 100, b: Math.floor(i / 100), v: r() }) },
  { name: 'chart: box', vis: chart('box', { c: 'x', v: 'y' }), columns: [{ name: 'c', type: 'string' }, { name: 'v', type: 'float' }], row: (i, r) => ({ c: `Group ${i % 10}`, v: Math.exp(r() * 3) }) },
  { name: 'counter', vis: { type: 'COUNTER', options: { counterColName: 'v', targetColName: 'v', targetRowNumber: -1 } }, columns: series, row: timeRow },
  { name: 'details', vis: { type: 'DETAILS', options: {} }, columns: series, row: timeRow },
  { name: 'table', vis: { type: 'TABLE', options: { columns: [{ name: 's', allowSearch: true }] } }, columns: series, row: timeRow },
  { name: 'pivot', vis: { type: 'PIVOT', options: { rows: ['r'], cols: ['c'], vals: ['v'], aggregatorName: 'Average' } }, columns: [{ name: 'r' }, { name: 'c' }, { name: 'v', type: 'float' }], row: (i, r) => ({ r: `Row ${i % 100}`, c: `Col ${i % 10}`, v: r() }) },
  { name: 'funnel', vis: { type: 'FUNNEL', options: { stepCol: { colName: 'step' }, valueCol: { colName: 'v' } } }, columns: [{ name: 'step' }, { name: 'v', type: 'float' }], row: (i, r) => ({ step: `Step ${i}`, v: r() * 1000 }) },
  { name: 'cohort', vis: { type: 'COHORT', options: { mode: 'simple' } }, columns: [{ name: 'date', type: 'date' }, { name: 'day_number' }, { name: 'total' }, { name: 'value' }], row: (i, r) => ({ date: new Date(START + (i % 200) * 24 * HOUR).toISOString().slice(0, 10), day_number: Math.floor(i / 200), total: 1000, value: Math.round(r() * 1000) }) },
  { name: 'sankey', vis: { type: 'SANKEY', options: {} }, columns: [{ name: 'stage1' }, { name: 'stage2' }, { name: 'stage3' }, { name: 'value', type: 'float' }], row: (_, r) => ({ stage1: `a${Math.floor(r() * 30)}`, stage2: `b${Math.floor(r() * 30)}`, stage3: `c${Math.floor(r() * 5)}`, value: r() * 10 }) },
  { name: 'sunburst', vis: { type: 'SUNBURST_SEQUENCE', options: {} }, columns: [{ name: 'sequence' }, { name: 'value', type: 'float' }], row: (_, r) => ({ sequence: Array.from({ length: 1 + Math.floor(r() * 4) }, () => WORDS[Math.floor(r() * 10)]).join('-'), value: r() * 10 }) },
  { name: 'map: choropleth (countries)', vis: { type: 'CHOROPLETH', options: { keyColumn: 'k', valueColumn: 'v', targetField: 'iso_n3' } }, columns: [{ name: 'k', type: 'integer' }, { name: 'v', type: 'float' }], row: (i, r) => ({ k: i % 900, v: r() * 100 }) },
  { name: 'map: choropleth (usa)', vis: { type: 'CHOROPLETH', options: { mapType: 'usa', keyColumn: 'k', valueColumn: 'v', targetField: 'fips' } }, columns: [{ name: 'k', type: 'integer' }, { name: 'v', type: 'float' }], row: (i, r) => ({ k: i % 80, v: r() * 100 }) },
  { name: 'map: markers (clustered)', vis: { type: 'MAP', options: { classify: 'g' } }, columns: [{ name: 'lat', type: 'float' }, { name: 'lon', type: 'float' }, { name: 'g' }], row: (i, r) => ({ lat: 25 + r() * 24, lon: -124 + r() * 57, g: `g${i % 4}` }) },
  { name: 'map: markers (every point)', vis: { type: 'MAP', options: { classify: 'g', clusterMarkers: false } }, columns: [{ name: 'lat', type: 'float' }, { name: 'lon', type: 'float' }, { name: 'g' }], row: (i, r) => ({ lat: 25 + r() * 24, lon: -124 + r() * 57, g: `g${i % 4}` }) },
  { name: 'word cloud', vis: { type: 'WORD_CLOUD', options: {} }, columns: [{ name: 'text' }], row: (_, r) => ({ text: Array.from({ length: 5 }, () => WORDS[Math.floor(r() ** 2 * WORDS.length)]).join(' ') }) },
]

function rows(c: Case, n: number): Row[] {
  const random = seededRandom(1)
  return Array.from({ length: n }, (_, i) => c.row(i, random))
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.floor(sorted.length / 2)]
}

/** Wall time and this process's CPU time: on a busy shared machine the CPU time is the steadier figure. */
function time(c: Case, data: Row[], runs: number): { ms: number; cpu: number; bytes: number } {
  const size = { width: 800, height: 400 }
  // a server renders the same code all day: time it warm, after the JIT has compiled it
  let bytes = 0
  for (let i = 0; i < 3; i++) bytes = renderVisualizationSvg(c.vis, { columns: c.columns, rows: data }, size).length
  const times: number[] = []
  const cpus: number[] = []
  for (let i = 0; i < runs; i++) {
    const start = performance.now()
    const cpu = process.cpuUsage()
    bytes = renderVisualizationSvg(c.vis, { columns: c.columns, rows: data }, size).length
    const used = process.cpuUsage(cpu)
    times.push(performance.now() - start)
    cpus.push((used.user + used.system) / 1000)
  }
  return { ms: median(times), cpu: median(cpus), bytes }
}

const table: string[][] = [['type', '10k rows: wall (median of 5)', 'cpu', '100k rows: wall (median of 3)', 'cpu', 'output at 100k']]
const only = process.argv[2]
for (const c of CASES.filter((k) => !only || k.name.includes(only))) {
  const small = time(c, rows(c, 10_000), 5)
  const large = time(c, rows(c, 100_000), 3)
  table.push([
    c.name, `${small.ms.toFixed(1)} ms${small.ms < 100 ? '' : ' (over 100)'}`, `${small.cpu.toFixed(1)} ms`,
    `${large.ms.toFixed(1)} ms`, `${large.cpu.toFixed(1)} ms`, `${(large.bytes / 1024).toFixed(0)} KiB`,
  ])
}
console.log(`load average ${(await import('node:os')).loadavg().map((l) => l.toFixed(1)).join(' ')} on ${(await import('node:os')).cpus().length} CPUs`)
const widths = table[0].map((_, i) => Math.max(...table.map((r) => r[i].length)))
for (const [i, r] of table.entries()) {
  console.log(r.map((cell, j) => (j ? cell.padStart(widths[j]) : cell.padEnd(widths[j]))).join('  '))
  if (!i) console.log(widths.map((w) => '-'.repeat(w)).join('  '))
}
