import v8 from 'node:v8'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { HEAP_GROWING_PERCENT, limitHeapGrowth } from '../../src/heap-growth.ts'

describe('the heap growth a Sightline process allows', () => {
  afterEach(() => vi.restoreAllMocks())

  it('collects again once half as much again as was live has been promoted', () => {
    const set = vi.spyOn(v8, 'setFlagsFromString').mockImplementation(() => {})
    limitHeapGrowth(['--import', 'tsx'])
    expect(HEAP_GROWING_PERCENT).toBe(50)
    expect(set).toHaveBeenCalledWith('--heap-growing-percent=50')
  })

  it('keeps the growth an operator chose on the command line, V8\'s own rule (0) included', () => {
    const set = vi.spyOn(v8, 'setFlagsFromString').mockImplementation(() => {})
    limitHeapGrowth(['--heap-growing-percent=0', '--import', 'tsx'])
    limitHeapGrowth(['--heap_growing_percent=200'])
    expect(set).not.toHaveBeenCalled()
  })
})
