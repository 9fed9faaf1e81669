import { describe, expect, it } from 'vitest'
import { schemaFields } from '../../islands/lib/DynamicForm.tsx'
import { destinationTypes } from '../../src/destinations/index.ts'
import { dataSourceTypes } from '../../src/runners/index.ts'

/**
 * The fields of every installed data source and destination type, as the schema-driven form draws them (spec 3 §3):
 * only a property named password or passwd hides what is typed; the other secrets are plain fields while typed and
 * sealed once saved.
 */
describe('the form fields of every installed type', () => {
  const all = [
    ...dataSourceTypes.types.map((t) => ['data source', t] as const),
    ...destinationTypes.types.map((t) => ['destination', t] as const),
  ]

  it.each(all.map(([what, t]) => [`${what} ${t.type}`, t] as const))('%s: a password field only for password or passwd', (_, t) => {
    for (const f of schemaFields(t.configurationSchema)) {
      expect([f.key, f.kind === 'password']).toEqual([f.key, f.key === 'password' || f.key === 'passwd'])
      expect([f.key, f.secret]).toEqual([f.key, (t.configurationSchema.secret ?? []).includes(f.key)])
    }
  })

  it("draws the webhook's URL as a plain field that is kept secret", () => {
    const url = schemaFields(destinationTypes.require('webhook').configurationSchema).find((f) => f.key === 'url')
    expect(url).toMatchObject({ kind: 'text', secret: true })
  })
})
