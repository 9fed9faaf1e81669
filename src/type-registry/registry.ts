import { BadRequest } from '../errors.ts'
import type { ConfigurationSchema } from '../shared/configuration-schema.ts'
import { checkOptions, maskedOptions } from './options.ts'
import { secretBox } from './secrets.ts'

/**
 * One kind of configured thing an admin creates from a list of types: a data source type (a runner), an alert
 * destination type. Its schema draws the form and checks what is stored; its `secret` fields are sealed at rest.
 */
export interface ConfiguredType {
  /** The established tool's type name ("pg", "slack" …), for API compatibility. */
  type: string
  name: string
  configurationSchema: ConfigurationSchema
  deprecated?: boolean
}

/** A configured thing as stored: its type, its plain options, and its secret fields sealed (null when none). */
export interface StoredConfiguration {
  type: string
  options: Record<string, unknown>
  secrets: string | null
}

export interface TypeRegistry<T extends ConfiguredType> {
  /** Every type, sorted by name as the create dialog lists them. */
  readonly types: readonly T[]
  /** The type of this name, or undefined for one this installation does not have. */
  get(type: string): T | undefined
  /** The type of this name, or a 400 naming it. */
  require(type: string): T
  /**
   * Submitted options checked against the type's schema, ready to store: unknown fields, wrong values and missing
   * required ones are a 400; empty optional values are dropped; secret fields are sealed. A secret sent back as the
   * mask (or empty) keeps the value stored `before`, unless the type changed.
   */
  toStore(secretKey: string, type: string, input: unknown, before?: StoredConfiguration): { options: Record<string, unknown>; secrets: string | null }
  /** The options as the browser sees them: set secrets show as the mask. Undefined for a type not installed. */
  toShow(secretKey: string, stored: StoredConfiguration): Record<string, unknown> | undefined
  /** Options and opened secrets together, as the code that connects needs them. */
  opened(secretKey: string, stored: Pick<StoredConfiguration, 'options' | 'secrets'>): Record<string, unknown>
  /** Seal secret fields as they are stored (null when there are none). */
  seal(secretKey: string, secrets: Record<string, unknown>): string | null
}

/**
 * A registry of types. `secretsPurpose` names the key their secrets are sealed with, one per kind (so a data
 * source's secrets cannot be opened as a destination's); it is part of every stored secret: never change it.
 */
export function typeRegistry<T extends ConfiguredType>(spec: {
  types: readonly T[]
  secretsPurpose: string
  unknownType: (type: string) => string
}): TypeRegistry<T> {
  const types = [...spec.types].sort((a, b) => a.name.localeCompare(b.name))
  const byType = new Map(types.map((t) => [t.type, t]))
  if (byType.size !== types.length) throw new Error('Two types share a type name.')
  const box = secretBox(spec.secretsPurpose)
  const seal = (secretKey: string, secrets: Record<string, unknown>) => (Object.keys(secrets).length ? box.seal(secretKey, secrets) : null)
  const registry: TypeRegistry<T> = {
    types,
    get: (type) => byType.get(type),
    require(type) {
      const found = byType.get(type)
      if (!found) throw new BadRequest(spec.unknownType(type))
      return found
    },
    toStore(secretKey, type, input, before) {
      const schema = registry.require(type).configurationSchema
      const kept = before && before.type === type ? box.open(secretKey, before.secrets) : {}
      const { options, secrets } = checkOptions(schema, input, { options: before?.options ?? {}, secrets: kept })
      return { options, secrets: seal(secretKey, secrets) }
    },
    toShow(secretKey, stored) {
      const found = byType.get(stored.type)
      return found && maskedOptions(found.configurationSchema, stored.options, box.open(secretKey, stored.secrets))
    },
    opened: (secretKey, stored) => ({ ...stored.options, ...box.open(secretKey, stored.secrets) }),
    seal,
  }
  return registry
}
