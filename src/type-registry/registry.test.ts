import { describe, expect, it } from 'vitest'
import { SECRET_MASK } from '../shared/configuration-schema.ts'
import { typeRegistry, type ConfiguredType } from './registry.ts'
import { typeJson } from './serialize.ts'

/** A destinations-like registry, as a new kind declares one: its types, its secrets' key, its unknown-type text. */
interface Destination extends ConfiguredType {
  icon: string
}

const slack: Destination = {
  type: 'slack', name: 'Slack', icon: 'fa-slack',
  configurationSchema: { type: 'object', properties: { url: { type: 'string', title: 'Slack Webhook URL' }, channel: { type: 'string' } }, required: ['url'], secret: ['url'] },
}
const email: Destination = {
  type: 'email', name: 'Email', icon: 'fa-envelope', deprecated: true,
  configurationSchema: { type: 'object', properties: { addresses: { type: 'string' } }, required: ['addresses'] },
}
const destinations = typeRegistry({ types: [slack, email], secretsPurpose: 'test-destination-secrets', unknownType: (t) => `Unknown destination type: ${t}.` })
const KEY = 'secret-key'

describe('a type registry', () => {
  it('lists its types by name and finds them by type', () => {
    expect(destinations.types.map((t) => t.type)).toEqual(['email', 'slack'])
    expect(destinations.get('slack')).toBe(slack)
    expect(destinations.get('nope')).toBeUndefined()
    expect(() => destinations.require('nope')).toThrow('Unknown destination type: nope.')
    expect(() => typeRegistry({ types: [slack, slack], secretsPurpose: 'x', unknownType: String })).toThrow()
  })

  it('stores options checked against the type, its secrets sealed, and shows them masked', () => {
    const stored = { type: 'slack', ...destinations.toStore(KEY, 'slack', { url: 'https://hooks.example/T1', channel: '#data' }) }
    expect(stored.options).toEqual({ channel: '#data' })
    expect(stored.secrets).toMatch(/^v1:/)
    expect(stored.secrets).not.toContain('hooks.example')
    expect(destinations.toShow(KEY, stored)).toEqual({ channel: '#data', url: SECRET_MASK })
    expect(destinations.opened(KEY, stored)).toEqual({ channel: '#data', url: 'https://hooks.example/T1' })
    expect(destinations.toStore(KEY, 'email', { addresses: 'a@example.com' })).toEqual({ options: { addresses: 'a@example.com' }, secrets: null })
    expect(() => destinations.toStore(KEY, 'email', {})).toThrow('addresses: This field is required.')
    expect(() => destinations.toStore(KEY, 'pigeon', {})).toThrow('Unknown destination type: pigeon.')
    expect(destinations.toShow(KEY, { type: 'pigeon', options: {}, secrets: null })).toBeUndefined()
  })

  it('keeps a stored secret sent back masked, but not across a change of type', () => {
    const before = { type: 'slack', ...destinations.toStore(KEY, 'slack', { url: 'https://hooks.example/T1' }) }
    const saved = { type: 'slack', ...destinations.toStore(KEY, 'slack', { url: SECRET_MASK, channel: '#ops' }, before) }
    expect(destinations.opened(KEY, saved)).toEqual({ channel: '#ops', url: 'https://hooks.example/T1' })
    const retyped = { ...before, type: 'other-slack' }
    expect(() => destinations.toStore(KEY, 'slack', { url: SECRET_MASK }, retyped)).toThrow('Slack Webhook URL: This field is required.')
  })

  it('seals its secrets apart from every other kind', () => {
    const other = typeRegistry({ types: [slack], secretsPurpose: 'another-purpose', unknownType: String })
    const { secrets } = destinations.toStore(KEY, 'slack', { url: 'https://hooks.example/T1' })
    expect(() => other.opened(KEY, { options: {}, secrets })).toThrow()
    expect(destinations.seal(KEY, {})).toBeNull()
  })

  it('answers /types with type, name, deprecated and schema, for each kind to add its own fields to', () => {
    expect(destinations.types.map((t) => ({ ...typeJson(t), icon: t.icon }))).toEqual([
      { type: 'email', name: 'Email', deprecated: true, configuration_schema: email.configurationSchema, icon: 'fa-envelope' },
      { type: 'slack', name: 'Slack', deprecated: false, configuration_schema: slack.configurationSchema, icon: 'fa-slack' },
    ])
  })
})
