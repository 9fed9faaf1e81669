import { describe, expect, it } from 'vitest'
import {
  freeSlug, rewriteQueryReferences, splitMasked, translateAlertOptions, translateQueryOptions, translateSchedule, usesTwelveColumns,
  versionAtLeast, widgetPosition,
} from '../../src/imports/index.ts'

/** The importer's translations of the established tool's stored shapes, version by version. */
describe('versions', () => {
  it('reads releases and development builds, the grid change at 25.8', () => {
    expect(usesTwelveColumns('25.1.0')).toBe(false)
    expect(usesTwelveColumns('25.8.0')).toBe(true)
    expect(usesTwelveColumns('26.08.0-dev')).toBe(true)
    expect(usesTwelveColumns('10.1.0')).toBe(false)
    expect(versionAtLeast('8.0.0', 10)).toBe(false)
    expect(versionAtLeast('9.0.0-beta', 10)).toBe(false)
  })
})

describe('widget positions', () => {
  it('halves col (down) and width (up, at least 1) from a 12-column instance', () => {
    const place = (position: object) => widgetPosition({ position }, false, true, []).position
    expect(place({ col: 3, sizeX: 3, row: 2, sizeY: 8 })).toMatchObject({ col: 1, sizeX: 2, row: 2, sizeY: 8 })
    expect(place({ col: 11, sizeX: 1, row: 0, sizeY: 3 })).toMatchObject({ col: 5, sizeX: 1 })
    expect(place({ col: 0, sizeX: 12, row: 0, sizeY: 3, minSizeX: 2, maxSizeX: 12 })).toMatchObject({ col: 0, sizeX: 6, minSizeX: 1, maxSizeX: 6 })
  })

  it('keeps positions from older versions, inside the 6 columns', () => {
    expect(widgetPosition({ position: { col: 3, sizeX: 3, row: 0, sizeY: 8 } }, false, false, []).position).toMatchObject({ col: 3, sizeX: 3 })
    expect(widgetPosition({ position: { col: 5, sizeX: 4, row: 0, sizeY: 8 } }, false, false, []).position).toMatchObject({ col: 2, sizeX: 4 })
  })

  it('places a widget without a position at the lowest free place', () => {
    const placed: { col: number; row: number; sizeX: number; sizeY: number }[] = []
    widgetPosition({ position: { col: 0, sizeX: 3, row: 0, sizeY: 8 } }, false, false, placed)
    const free = widgetPosition({}, false, false, placed)
    expect(free).toMatchObject({ placedFreely: true, position: { col: 3, row: 0, sizeX: 3 } })
    expect(widgetPosition({ position: null }, true, false, placed).position).toMatchObject({ col: 0, row: 8 })
  })
})

describe('queries', () => {
  it('reads schedules in the old string form and as objects with string intervals', () => {
    expect(translateSchedule('3600')).toEqual({ interval: 3600, time: null, day_of_week: null, until: null })
    expect(translateSchedule('14:30')).toEqual({ interval: 86400, time: '14:30', day_of_week: null, until: null })
    expect(translateSchedule({ interval: '604800', time: '09:00', day_of_week: 'Monday', until: '2030-01-01' }))
      .toEqual({ interval: 604800, time: '09:00', day_of_week: 'Monday', until: '2030-01-01' })
    expect(translateSchedule({ interval: null })).toBeNull()
    expect(translateSchedule('')).toBeNull()
  })

  it('points dropdowns at new ids and drops the scratch keys old clients saved', () => {
    const map = new Map([[2, 20]])
    const { options, unmappedDropdowns } = translateQueryOptions({ parameters: [
      { name: 'a', type: 'query', queryId: 2, parentQueryId: 1, $$value: 'x', locals: [] },
      { name: 'b', type: 'query', queryId: 9 },
    ], apply_auto_limit: true }, (id) => map.get(id))
    expect(options).toEqual({ parameters: [{ name: 'a', type: 'query', queryId: 20 }, { name: 'b', type: 'query', queryId: null }], apply_auto_limit: true })
    expect(unmappedDropdowns).toEqual([9])
  })

  it('rewrites Query Results references whole, after FROM or JOIN only', () => {
    const map = new Map([[5, 12], [50, 7]])
    const { text, unmapped } = rewriteQueryReferences(
      'SELECT query_5 FROM query_5 JOIN cached_query_50 ON 1 join param_query_5_{a=1} on 1 from query_6', (id) => map.get(id))
    expect(text).toBe('SELECT query_5 FROM query_12 JOIN cached_query_7 ON 1 join param_query_12_{a=1} on 1 from query_6')
    expect(unmapped).toEqual([6])
  })

  it('rewrites references in a FROM list after commas and in quotes, never in strings or comments', () => {
    const map = new Map([[5, 12], [6, 13]])
    const { text, unmapped } = rewriteQueryReferences(
      `select * from query_5 a, "query_6" b, [cached_query_5] c where a.x = 'query_5' -- from query_6\n`, (id) => map.get(id))
    expect(text).toBe(`select * from query_12 a, "query_13" b, [cached_query_12] c where a.x = 'query_5' -- from query_6\n`)
    expect(unmapped).toEqual([])
  })
})

describe('alerts, secrets and slugs', () => {
  it('names legacy operators as today and defaults what older versions lack', () => {
    expect(translateAlertOptions({ op: 'greater than', column: 'n', value: 1 })).toEqual({ op: '>', column: 'n', value: 1, selector: 'first', muted: false })
    expect(translateAlertOptions({ op: 'equals', selector: 'max', muted: true, template: 'x' })).toMatchObject({ op: '==', selector: 'max', muted: true, custom_body: 'x' })
  })

  it('drops masked secrets and names them', () => {
    expect(splitMasked({ host: 'h', password: '--------' })).toEqual({ options: { host: 'h' }, masked: ['password'] })
  })

  it('keeps a free slug and numbers a taken one', () => {
    const taken = new Set(['sales', 'sales_1'])
    expect(freeSlug('ops', (s) => taken.has(s))).toBe('ops')
    expect(freeSlug('sales', (s) => taken.has(s))).toBe('sales_2')
  })
})
