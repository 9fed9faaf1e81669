/**
 * One picture per visualization type (and per chart kind), drawn from the demo-like data: the "pictures as
 * tests". Render tests check their marks; each is written to output/<name>.svg (or .html) for people to look at.
 */
import * as demo from './demo-data.ts'
import type { Result } from './demo-data.ts'
import * as maps from './map-data.ts'

export interface Picture {
  name: string
  vis: { type: string; options: Record<string, unknown> }
  data: Result
  size?: { width: number; height: number }
  view?: { filters?: Record<string, unknown[]>; page?: number; search?: string }
}

const monthly = demo.monthlyRevenue()
const byRegion = { month: 'x', region: 'series', revenue: 'y' }

export const GALLERY: Picture[] = [
  { name: 'chart-column', vis: { type: 'CHART', options: { globalSeriesType: 'column', columnMapping: byRegion } }, data: monthly },
  { name: 'chart-column-stacked', vis: { type: 'CHART', options: { globalSeriesType: 'column', columnMapping: byRegion, series: { stacking: 'stack' } } }, data: monthly },
  { name: 'chart-line', vis: { type: 'CHART', options: { globalSeriesType: 'line', columnMapping: byRegion, yAxis: [{ title: { text: 'Revenue (USD)' } }] } }, data: monthly },
  { name: 'chart-area-percent', vis: { type: 'CHART', options: { globalSeriesType: 'area', columnMapping: byRegion, series: { stacking: 'percent' } } }, data: monthly },
  {
    name: 'chart-bar', vis: { type: 'CHART', options: { globalSeriesType: 'bar', columnMapping: { category: 'x', revenue: 'y' }, showDataLabels: true, numberFormat: '$0,0' } },
    data: demo.categorySales(),
  },
  {
    name: 'chart-combo-dual-axis',
    vis: { type: 'CHART', options: { globalSeriesType: 'column', columnMapping: { category: 'x', revenue: 'y', margin: 'y' }, seriesOptions: { margin: { type: 'line', yAxis: 1 } } } },
    data: demo.categorySales(),
  },
  { name: 'chart-pie', vis: { type: 'CHART', options: { globalSeriesType: 'pie', columnMapping: { category: 'x', revenue: 'y' } } }, data: demo.categorySales() },
  { name: 'chart-donut', vis: { type: 'CHART', options: { globalSeriesType: 'donut', columnMapping: { category: 'x', units: 'y' } } }, data: demo.categorySales() },
  { name: 'chart-scatter', vis: { type: 'CHART', options: { globalSeriesType: 'scatter', columnMapping: { price: 'x', units: 'y', category: 'series' } } }, data: demo.products() },
  { name: 'chart-bubble', vis: { type: 'CHART', options: { globalSeriesType: 'bubble', columnMapping: { price: 'x', rating: 'y', units: 'size' } } }, data: demo.products(30) },
  { name: 'chart-heatmap', vis: { type: 'CHART', options: { globalSeriesType: 'heatmap', columnMapping: { month: 'x', region: 'y', orders: 'zVal' } } }, data: monthly },
  { name: 'chart-box', vis: { type: 'CHART', options: { globalSeriesType: 'box', columnMapping: { region: 'x', order_value: 'y' } } }, data: demo.orderValues() },
  {
    name: 'counter', size: { width: 400, height: 240 },
    vis: { type: 'COUNTER', options: { counterLabel: 'Revenue this month', counterColName: 'revenue', rowNumber: -1, targetColName: 'revenue', targetRowNumber: -5, stringPrefix: '$', formatTargetValue: true } },
    data: monthly,
  },
  { name: 'details', vis: { type: 'DETAILS', options: {} }, data: demo.customers(), size: { width: 500, height: 360 } },
  {
    name: 'table', size: { width: 900, height: 420 },
    vis: { type: 'TABLE', options: { itemsPerPage: 10, columns: [
      { name: 'email', displayAs: 'link', linkUrlTemplate: 'mailto:{{ @ }}', allowSearch: true },
      { name: 'lifetime_value', title: 'Lifetime value', numberFormat: '$0,0.00' },
      { name: 'active', booleanValues: ['No', 'Yes'], alignContent: 'center' },
      { name: 'profile', displayAs: 'json' },
      { name: 'id', visible: false },
    ] } },
    data: demo.customers(),
    view: { filters: { 'segment::filter': ['Consumer'] } },
  },
  {
    name: 'pivot', size: { width: 800, height: 400 },
    vis: { type: 'PIVOT', options: { rows: ['region'], cols: ['year'], vals: ['revenue'], aggregatorName: 'Sum', numberFormat: '$0,0' } },
    data: { columns: [...monthly.columns, { name: 'year', type: 'string' }], rows: monthly.rows.map((r) => ({ ...r, year: String(r.month).slice(0, 4) })) },
  },
  {
    name: 'funnel', vis: { type: 'FUNNEL', options: { stepCol: { colName: 'step', displayAs: 'Step' }, valueCol: { colName: 'users', displayAs: 'Users' } } },
    data: demo.checkoutFunnel(),
  },
  {
    name: 'cohort', size: { width: 900, height: 320 },
    vis: { type: 'COHORT', options: { timeInterval: 'monthly', dateColumn: 'signup_month', stageColumn: 'month_number', totalColumn: 'total', valueColumn: 'active' } },
    data: demo.retentionCohorts(),
  },
  { name: 'sankey', vis: { type: 'SANKEY', options: {} }, data: demo.journeys() },
  { name: 'sunburst', vis: { type: 'SUNBURST_SEQUENCE', options: {} }, data: demo.sessions() },
  { name: 'word-cloud', vis: { type: 'WORD_CLOUD', options: { column: 'review' } }, data: demo.reviews() },
  {
    name: 'map-choropleth-countries', size: { width: 900, height: 460 },
    vis: { type: 'CHOROPLETH', options: { keyColumn: 'country', valueColumn: 'customers', targetField: 'iso_a2', valueFormat: '0,0', tooltip: { template: '{{ @@name_long }} ({{ @@iso_a2 }}): {{ customers }} customers' } } },
    data: maps.customersByCountry(),
  },
  {
    name: 'map-choropleth-usa', size: { width: 800, height: 460 },
    vis: { type: 'CHOROPLETH', options: { mapType: 'usa', keyColumn: 'state', valueColumn: 'sales', targetField: 'usps_abbrev', clusteringMode: 'q', valueFormat: '$0,0', legend: { position: 'bottom-right' } } },
    data: maps.salesByState(),
  },
  {
    name: 'map-choropleth-japan', size: { width: 560, height: 560 },
    vis: { type: 'CHOROPLETH', options: { mapType: 'japan/prefectures', keyColumn: 'prefecture', valueColumn: 'visitors', valueFormat: '0.0a', steps: 4, colors: { min: '#fde2cf', max: '#b3400a' }, legend: { position: 'top-left' } } },
    data: maps.visitorsByPrefecture(),
  },
  {
    name: 'map-choropleth-korea', size: { width: 480, height: 560 },
    vis: { type: 'CHOROPLETH', options: { mapType: 'south_korea/provinces', keyColumn: 'code', valueColumn: 'population', targetField: 'code', clusteringMode: 'k', valueFormat: '0,0', legend: { position: 'bottom-right' } } },
    data: maps.populationByProvince(),
  },
  { name: 'map-markers-japan', size: { width: 520, height: 520 }, vis: { type: 'MAP', options: { clusterMarkers: false } }, data: maps.japanStations() },
  { name: 'map-markers', size: { width: 900, height: 480 }, vis: { type: 'MAP', options: { classify: 'kind', tooltip: { template: '{{ name }} ({{ kind }})' } } }, data: maps.storeLocations(80) },
]

const profit = {
  columns: [{ name: 'category', type: 'string' }, { name: 'profit', type: 'float' }],
  rows: [['Audio', 42_100], ['Bags', -12_800], ['Home', 18_300], ['Outdoor', -4_100], ['Computing', 61_700], ['Apparel', 9_900]].map(([category, profit]) => ({ category, profit })),
}
const longNames = {
  columns: [{ name: 'product', type: 'string' }, { name: 'units', type: 'integer' }],
  rows: Array.from({ length: 120 }, (_, i) => ({ product: `Aurora noise-cancelling headphones, edition ${i + 1}`, units: 100 + ((i * 37) % 90) })),
}
const wave = (n: number) => ({
  columns: [{ name: 'at', type: 'datetime' }, { name: 'load', type: 'float' }],
  rows: Array.from({ length: n }, (_, i) => ({ at: new Date(Date.UTC(2024, 0, 1) + i * 60_000).toISOString(), load: Math.round((50 + 30 * Math.sin(i / 900) + ((i * 7919) % 13)) * 10) / 10 })),
})
const gaps = {
  columns: [{ name: 'day', type: 'date' }, { name: 'signups', type: 'integer' }],
  rows: ['2024-05-01', '2024-05-02', '2024-05-03', '2024-05-04', '2024-05-05', '2024-05-06', '2024-05-07'].map((day, i) => ({ day, signups: i === 3 ? null : 20 + i * 3 })),
}

/** Pictures of the hard cases: negative values, crowded and long labels, 100,000 points, gaps, nothing at all. */
export const EDGE_CASES: Picture[] = [
  { name: 'edge-negative-columns', vis: { type: 'CHART', options: { globalSeriesType: 'column', columnMapping: { category: 'x', profit: 'y' }, showDataLabels: true, numberFormat: '0,0' } }, data: profit },
  { name: 'edge-long-crowded-labels', vis: { type: 'CHART', options: { globalSeriesType: 'column', columnMapping: { product: 'x', units: 'y' }, sortX: false } }, data: longNames },
  { name: 'edge-line-100k', vis: { type: 'CHART', options: { globalSeriesType: 'line', columnMapping: { at: 'x', load: 'y' } } }, data: wave(100_000) },
  { name: 'edge-line-gaps', vis: { type: 'CHART', options: { globalSeriesType: 'line', columnMapping: { day: 'x', signups: 'y' }, missingValuesAsZero: false } }, data: gaps },
  { name: 'edge-empty', vis: { type: 'CHART', options: { globalSeriesType: 'column' } }, data: { columns: [], rows: [] } },
  { name: 'edge-map-markers-10k', size: { width: 900, height: 480 }, vis: { type: 'MAP', options: { classify: 'kind' } }, data: maps.storeLocations(10_000) },
  { name: 'edge-map-unknown', vis: { type: 'CHOROPLETH', options: { mapType: 'atlantis' } }, data: { columns: [{ name: 'country' }, { name: 'n' }], rows: [{ country: 'FR', n: 1 }] } },
]
