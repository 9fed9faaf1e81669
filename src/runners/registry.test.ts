import { describe, expect, it } from 'vitest'
import { ANNOTATE_OPTION, getRunner, runners, shouldAnnotate } from './registry.ts'

describe('runner registry', () => {
  it('offers each engine once, sorted by name', () => {
    expect(runners.map((r) => r.name)).toEqual([...runners.map((r) => r.name)].sort((a, b) => a.localeCompare(b)))
    expect(new Set(runners.map((r) => r.type)).size).toBe(runners.length)
  })

  it('offers the annotation switch under Additional Settings where annotation is supported, on by default', () => {
    const pg = getRunner('pg')!
    expect(pg.configurationSchema.properties[ANNOTATE_OPTION]).toMatchObject({ type: 'boolean', default: true })
    expect(pg.configurationSchema.extra_options).toContain(ANNOTATE_OPTION)
    expect(shouldAnnotate(pg, {})).toBe(true)
    expect(shouldAnnotate(pg, { [ANNOTATE_OPTION]: false })).toBe(false)
    const json = getRunner('json')!
    expect(json.configurationSchema.properties).not.toHaveProperty(ANNOTATE_OPTION)
    expect(shouldAnnotate(json, {})).toBe(false)
  })
})
