import { describe, expect, it } from 'vitest'
import { SECRET_MASK, type ConfigurationSchema } from '../shared/configuration-schema.ts'
import { checkOptions, maskedOptions } from './options.ts'

const schema: ConfigurationSchema = {
  type: 'object',
  properties: {
    url: { type: 'string', title: 'Webhook URL' },
    port: { type: 'number' },
    verify: { type: 'boolean', title: 'Verify' },
    level: { type: 'string', title: 'Level', enum: ['low', 'high'] },
    region: { type: 'string', title: 'Region', extendedEnum: [{ value: 'eu', name: 'Europe' }] },
    token: { type: 'string', title: 'Token' },
  },
  required: ['url', 'token'],
  secret: ['token'],
}

const message = (f: () => unknown) => {
  try {
    f()
  } catch (error) {
    return [(error as { status?: number }).status, (error as Error).message]
  }
  return undefined
}

describe('checking options against a schema', () => {
  it('types the values, drops empty optional ones and splits the secret fields off', () => {
    expect(checkOptions(schema, { url: 'https://x', port: '8080', verify: 'false', level: 'high', region: 'eu', token: 't', }))
      .toEqual({ options: { url: 'https://x', port: 8080, verify: false, level: 'high', region: 'eu' }, secrets: { token: 't' } })
    expect(checkOptions(schema, { url: 'https://x', port: '', level: null, token: 't' })).toEqual({ options: { url: 'https://x' }, secrets: { token: 't' } })
  })

  it('refuses what the schema does not allow with a 400 that names the field', () => {
    expect(message(() => checkOptions(schema, [1]))).toEqual([400, 'options must be an object.'])
    expect(message(() => checkOptions(schema, 'x'))).toEqual([400, 'options must be an object.'])
    expect(message(() => checkOptions(schema, { url: 'x', token: 't', other: 1 }))).toEqual([400, 'Unknown option: other.'])
    expect(message(() => checkOptions(schema, { url: 'x', token: 't', port: 'many' }))).toEqual([400, 'port must be a number.'])
    expect(message(() => checkOptions(schema, { url: 'x', token: 't', verify: 'yes' }))).toEqual([400, 'Verify must be true or false.'])
    expect(message(() => checkOptions(schema, { url: 'x', token: 't', level: 'mid' }))).toEqual([400, 'Level must be one of: low, high.'])
    expect(message(() => checkOptions(schema, { url: 'x', token: 't', region: 'us' }))).toEqual([400, 'Region must be one of: eu.'])
    expect(message(() => checkOptions(schema, { url: { a: 1 }, token: 't' }))).toEqual([400, 'Webhook URL must be text.'])
    expect(message(() => checkOptions(schema, { url: 'x' }))).toEqual([400, 'Token: This field is required.'])
    expect(message(() => checkOptions(schema, undefined))).toEqual([400, 'Webhook URL: This field is required.'])
  })

  it('keeps a stored secret sent back as the mask or left empty, and never stores the mask itself', () => {
    const stored = { options: { url: 'https://x' }, secrets: { token: 'kept' } }
    expect(checkOptions(schema, { url: 'https://y', token: SECRET_MASK }, stored).secrets).toEqual({ token: 'kept' })
    expect(checkOptions(schema, { url: 'https://y', token: '' }, stored).secrets).toEqual({ token: 'kept' })
    expect(checkOptions(schema, { url: 'https://y', token: 'new' }, stored).secrets).toEqual({ token: 'new' })
    // nothing stored: the mask is no value, so the required secret is missing
    expect(message(() => checkOptions(schema, { url: 'https://y', token: SECRET_MASK }))).toEqual([400, 'Token: This field is required.'])
  })
})

describe('masking options', () => {
  it('shows set secrets as the mask and leaves unset ones out', () => {
    expect(maskedOptions(schema, { url: 'https://x' }, { token: 't' })).toEqual({ url: 'https://x', token: SECRET_MASK })
    expect(maskedOptions(schema, { url: 'https://x' }, {})).toEqual({ url: 'https://x' })
  })
})
