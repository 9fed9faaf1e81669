import { describe, expect, it } from 'vitest'
import {
  autoName, criteriaText, durationText, normalizeOp, rateCountValid, rearmChoice, rearmSeconds, ruleText, thresholdHints, thresholdValue,
} from './alert-form.ts'

describe('rearm (spec 2 §4, §9)', () => {
  it('reads 0 and null as once, 1 as each evaluation, more as the largest whole unit', () => {
    expect(rearmChoice(0).mode).toBe('once')
    expect(rearmChoice(null).mode).toBe('once')
    expect(rearmChoice(1).mode).toBe('each')
    expect(rearmChoice(7200)).toEqual({ mode: 'rate', count: '2', unit: 'hour' })
    expect(rearmChoice(90)).toEqual({ mode: 'rate', count: '90', unit: 'second' })
    expect(rearmChoice(1_209_600)).toEqual({ mode: 'rate', count: '2', unit: 'week' })
  })

  it('writes seconds back, and refuses a rate number below 1 or with decimals', () => {
    expect(rearmSeconds({ mode: 'once', count: '5', unit: 'hour' })).toBe(0)
    expect(rearmSeconds({ mode: 'each', count: '5', unit: 'hour' })).toBe(1)
    expect(rearmSeconds({ mode: 'rate', count: '30', unit: 'minute' })).toBe(1800)
    // "at most every 1 second" must not read back as "each evaluation"
    expect(rearmSeconds({ mode: 'rate', count: '1', unit: 'second' })).toBe(2)
    for (const bad of ['0', '1.5', '-2', '', 'x']) {
      expect(rateCountValid(bad), bad).toBe(false)
      expect(rearmSeconds({ mode: 'rate', count: bad, unit: 'hour' })).toBeNull()
    }
  })

  it('states the rule as the view page shows it', () => {
    expect(ruleText(0)).toBe('Just once, until back to normal')
    expect(ruleText(1)).toBe('Each time the alert is evaluated, until back to normal')
    expect(ruleText(86_400)).toBe('At most every 1 day(s), until back to normal')
    expect(durationText(3600)).toBe('1 hour(s)')
  })
})

describe('threshold hints (spec 2 §5)', () => {
  it('flags a non-numeric threshold and a non-numeric top value for ordering operators only', () => {
    expect(thresholdHints('>', 'abc', 5)).toEqual({ threshold: "Value column type doesn't match threshold type." })
    expect(thresholdHints('<=', '10', 'North')).toEqual({ column: "Value column isn't supported by condition type." })
    expect(thresholdHints('>', '10', true)).toEqual({ column: "Value column isn't supported by condition type." })
    expect(thresholdHints('>', ' 10 ', '12')).toEqual({})
    expect(thresholdHints('>', '10', undefined)).toEqual({})
    expect(thresholdHints('==', 'abc', 'North')).toEqual({})
    expect(thresholdHints('!=', 'abc', 5)).toEqual({})
  })

  it('sends a threshold that reads as a number as a number', () => {
    expect(thresholdValue(' 100 ')).toBe(100)
    expect(thresholdValue('1e3')).toBe(1000)
    expect(thresholdValue('North')).toBe('North')
  })
})

describe('names and criteria', () => {
  it('auto-names from query, column, operator and threshold, or New Alert without a query', () => {
    expect(autoName('Orders', 'n', '>', 100)).toBe('Orders: n > 100')
    expect(autoName(undefined, 'n', '>', 100)).toBe('New Alert')
    expect(autoName('x'.repeat(300), 'n', '>', 1)).toHaveLength(255)
  })

  it('reads legacy operators as symbols', () => {
    expect(normalizeOp('greater than')).toBe('>')
    expect(normalizeOp('less than')).toBe('<')
    expect(normalizeOp('equals')).toBe('==')
    expect(normalizeOp('=')).toBe('==')
    expect(criteriaText({ column: 'n', op: 'equals', value: 'ok', selector: 'max' })).toBe('Max value of n == ok')
  })
})
