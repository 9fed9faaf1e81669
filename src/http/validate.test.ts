import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import { formBody, jsonBytes, jsonTexts, LIMITS, limitedJson, limitedText, parseJsonText, validate } from './validate.ts'

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

describe('parseJsonText', () => {
  const problem = (text: string) => {
    try {
      parseJsonText(text)
      return 'valid'
    } catch (error) {
      return (error as Error).message
    }
  }

  it('parses JSON nested up to 64 levels and refuses deeper, however it is built', () => {
    expect(problem('['.repeat(64) + ']'.repeat(64))).toBe('valid')
    expect(problem('['.repeat(65) + ']'.repeat(65))).toBe(jsonTexts.tooDeep)
    expect(problem('{"a":'.repeat(65) + '1' + '}'.repeat(65))).toBe(jsonTexts.tooDeep)
    expect(problem('['.repeat(100_000))).toBe(jsonTexts.tooDeep)
    // brackets inside strings are text, not nesting
    expect(problem(JSON.stringify({ sql: '['.repeat(1000) + '{'.repeat(1000) }))).toBe('valid')
  })

  it('refuses a NUL character anywhere, keys included, but not an escaped backslash before u0000', () => {
    expect(problem(JSON.stringify({ a: 'x\u0000' }))).toBe(jsonTexts.nul)
    expect(problem(JSON.stringify({ ['\u0000']: 1 }))).toBe(jsonTexts.nul)
    expect(problem(JSON.stringify(['\\', '\u0000']))).toBe(jsonTexts.nul)
    expect(problem(JSON.stringify({ a: '\\u0000' }))).toBe('valid')
    expect(problem(JSON.stringify({ a: '\\\\u0000' }))).toBe('valid')
  })

  it('says when the text is not JSON', () => {
    expect(problem('{')).toBe(jsonTexts.notJson)
    expect(problem('')).toBe(jsonTexts.notJson)
    expect(problem('{"a": "\u0000"}')).toBe(jsonTexts.notJson) // a raw NUL is no JSON
  })
})

describe('limits', () => {
  it('names the field and its limit', () => {
    expect(message2(limitedText('Query text', LIMITS.queryText), 'x'.repeat(100_001))).toBe('Query text is too long (at most 100,000 characters).')
    expect(message2(limitedText('Query text', LIMITS.queryText), 'x'.repeat(100_000))).toBe('valid')
    expect(message2(limitedJson('Visualization options', 20), { a: 'é'.repeat(7) })).toBe('Visualization options are too large (at most 20 bytes as JSON).')
    expect(message2(limitedJson('Visualization options', 20), { a: 'e'.repeat(7) })).toBe('valid')
  })

  it('measures JSON in UTF-8 bytes', () => {
    expect(jsonBytes({ a: 'é' })).toBe(10)
    expect(jsonBytes(undefined)).toBe(0)
  })
})

describe('formBody', () => {
  it('gives the fields, and refuses NUL characters and bodies that are no form', async () => {
    const form = (fields: Record<string, unknown>) => ({ parseBody: async () => fields })
    expect(await formBody(form({ email: 'a@example.com' }))).toEqual({ email: 'a@example.com' })
    await expect(formBody(form({ email: 'a\u0000@example.com' }))).rejects.toThrow(jsonTexts.nul)
    await expect(formBody({ parseBody: () => Promise.reject(new Error('boundary')) })).rejects.toThrow(jsonTexts.notForm)
  })
})

function message2(schema: z.ZodType, value: unknown) {
  try {
    validate(schema, value)
    return 'valid'
  } catch (error) {
    return (error as Error).message
  }
}
