import { describe, expect, it } from 'vitest'
import { getVisualization, validateVisualization, VISUALIZATION_TYPES, visualizationChoices } from '../../src/visualizations/registry.ts'

describe('validateVisualization', () => {
  it('knows every type by its stored name', () => {
    expect(VISUALIZATION_TYPES).toEqual(['CHART', 'COUNTER', 'DETAILS', 'FUNNEL', 'COHORT', 'PIVOT', 'SANKEY', 'SUNBURST_SEQUENCE', 'WORD_CLOUD', 'TABLE', 'CHOROPLETH', 'MAP'])
    expect(visualizationChoices()[0]).toEqual({ type: 'CHART', name: 'Chart' })
    expect(getVisualization('NOPE')).toBeNull()
  })

  it('accepts good options, filling defaults and keeping unknown keys', () => {
    const result = validateVisualization({ type: 'CHART', options: { globalSeriesType: 'line', columnMapping: { day: 'x', n: 'y' }, error_y: { visible: true } } })
    expect(result.ok).toBe(true)
    if (!result.ok) return
    expect(result.options).toMatchObject({
      globalSeriesType: 'line', columnMapping: { day: 'x', n: 'y' }, error_y: { visible: true },
      legend: { enabled: true, placement: 'auto' }, series: { stacking: null }, missingValuesAsZero: true,
      xAxis: { type: '-', labels: { enabled: true } }, yAxis: [{ type: 'linear' }, { type: 'linear', opposite: true }],
    })
  })

  it('accepts options saved by the established tool', () => {
    const saved = {
      globalSeriesType: 'pie', sortX: true, legend: { enabled: true, placement: 'auto', traceorder: 'normal' },
      xAxis: { type: '-', labels: { enabled: true } }, yAxis: [{ type: 'linear' }, { type: 'linear', opposite: true }],
      alignYAxesAtZero: false, error_y: { type: 'data', visible: true }, series: { stacking: null, error_y: { type: 'data', visible: true } },
      seriesOptions: { count: { zIndex: 0, index: 0, type: 'pie', yAxis: 0 } }, valuesOptions: {}, columnMapping: { name: 'x', count: 'y' },
      direction: { type: 'counterclockwise' }, sizemode: 'diameter', coefficient: 1, numberFormat: '0,0[.]00000', percentFormat: '0[.]00%',
      textFormat: '', missingValuesAsZero: true, showDataLabels: true, dateTimeFormat: 'DD/MM/YY HH:mm',
    }
    expect(validateVisualization({ type: 'CHART', options: saved }).ok).toBe(true)
    expect(validateVisualization({ type: 'PIVOT', options: { aggregatorName: 'Integer Sum', rendererName: 'Table', controls: { enabled: false } } }).ok).toBe(true)
  })

  it('accepts every type with empty options', () => {
    for (const type of VISUALIZATION_TYPES) expect(validateVisualization({ type, options: {} }).ok, type).toBe(true)
    expect(validateVisualization({ type: 'COUNTER' }).ok).toBe(true)
  })

  it('rejects an unknown or missing type', () => {
    expect(validateVisualization({ type: 'GAUGE', options: {} })).toEqual({ ok: false, message: 'type: Unknown visualization type: GAUGE.' })
    expect(validateVisualization({ options: {} })).toEqual({ ok: false, message: 'type: A visualization type is required.' })
    expect(validateVisualization({ type: 'chart', options: {} }).ok).toBe(false)
  })

  it.each([
    ['CHART', { yAxis: [{}, {}, {}] }, 'options.yAxis'],
    ['CHART', { seriesOptions: { a: { color: 'red;} <script>' } } }, 'options.seriesOptions.a.color'],
    ['TABLE', { itemsPerPage: 0 }, 'options.itemsPerPage'],
    ['TABLE', { columns: [{ displayAs: 'string' }] }, 'options.columns.0.name'],
    ['TABLE', { columns: [{ name: 5 }] }, 'options.columns.0.name'],
    ['COHORT', { colors: { min: 'blue' } }, 'options.colors.min'],
    ['MAP', { mapTileUrl: 'javascript:alert(1)' }, 'options.mapTileUrl'],
    ['CHOROPLETH', { mapType: '../../etc/passwd' }, 'options.mapType'],
  ])('refuses what drawing cannot do without or will not draw: %s options %j at %s', (type, options, path) => {
    const result = validateVisualization({ type, options })
    expect(result.ok).toBe(false)
    if (!result.ok) expect(result.message.startsWith(`${path}: `)).toBe(true)
  })

  it.each([
    ['CHART', { globalSeriesType: 'radar' }, ['globalSeriesType']],
    ['CHART', { columnMapping: { a: 'z', b: 'y' } }, ['columnMapping', 'a']],
    ['CHART', { xAxis: { type: 'weird' } }, ['xAxis', 'type']],
    ['CHART', { series: { stacking: 'sideways' } }, ['series', 'stacking']],
    ['COUNTER', { rowNumber: 1.5 }, ['rowNumber']],
    ['TABLE', { columns: [{ name: 'a', displayAs: 'video' }] }, ['columns', 0, 'displayAs']],
    ['TABLE', { columns: [{ name: 'ok', booleanValues: [false, true] }] }, ['columns', 0, 'booleanValues']],
    ['FUNNEL', { sortKeyCol: { colName: null } }, ['sortKeyCol', 'colName']],
    ['PIVOT', { aggregatorName: 'Median' }, ['aggregatorName']],
    ['WORD_CLOUD', { maxWords: 'many' }, ['maxWords']],
  ])('keeps what it does not understand as given: %s options %j at %j', (type, options, path) => {
    const result = validateVisualization({ type, options })
    expect(result.ok).toBe(true)
    if (!result.ok) return
    const at = (root: unknown) => path.reduce<unknown>((v, k) => (v as Record<string | number, unknown>)?.[k], root)
    expect(at(result.options)).toEqual(at(options))
  })

  it('rejects options that are not an object', () => {
    expect(validateVisualization({ type: 'TABLE', options: [] })).toEqual({ ok: false, message: 'options: Options must be an object.' })
    expect(validateVisualization({ type: 'TABLE', options: 'x' })).toEqual({ ok: false, message: 'options: Options must be an object.' })
  })

  it('drops the table paginationSize on save (spec 2 §5)', () => {
    const result = validateVisualization({ type: 'TABLE', options: { itemsPerPage: 50, paginationSize: 'small' } })
    expect(result.ok && result.options).toEqual({ itemsPerPage: 50, columns: [] })
  })
})
