import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import { validate } from './validate.ts'

const Body = z.strictObject({
  name: z.string({ error: 'Name: This field is required.' }).min(1, 'Name: This field is required.'),
  size: z.number().int().optional(),
})

const message = (value: unknown) => {
  try {
    validate(Body, value)
    return 'valid'
  } catch (error) {
    return (error as Error).message
  }
}

describe('validate', () => {
  it('says what is wrong, naming the field once', () => {
    expect(message({ name: 5 })).toBe('Name: This field is required.')
    expect(message({ name: 'x', size: 'big' })).toMatch(/^size: /)
    expect(message({ name: 'x', extra: 1 })).toBe('Unknown field: extra.')
    expect(message([1])).toBe('The request body must be a JSON object.')
    expect(message({ name: 'x' })).toBe('valid')
  })
})
