import { describe, expect, it } from 'vitest'
import { safeNextPath } from './guards.ts'

describe('safeNextPath', () => {
  it.each([
    ['/queries/1?p_x=2#viz', '/queries/1?p_x=2#viz'],
    ['https://evil.example/queries', '/queries'],
    ['//evil.example/x', '/'],
    ['/\\evil.example', '/'],
    ['javascript:alert(1)', '/'],
    ['queries', '/'],
    ['/a\nb', '/'],
    ['', '/'],
    [null, '/'],
  ])('%j → %j', (input, expected) => {
    expect(safeNextPath(input)).toBe(expected)
  })
})
