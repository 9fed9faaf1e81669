import type { TypeJson } from '../shared/configuration-schema.ts'
import type { ConfiguredType } from './registry.ts'

/** A type as `/types` answers list it; each kind adds its own fields (a runner's syntax, a destination's icon). */
export function typeJson(t: ConfiguredType): TypeJson {
  return { type: t.type, name: t.name, deprecated: t.deprecated ?? false, configuration_schema: t.configurationSchema }
}
