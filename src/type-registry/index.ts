/** The front door of src/type-registry/: what the rest of Sightline may use of it (the structure test keeps it so). */

export { typeRegistry } from './registry.ts'
export type { ConfiguredType } from './registry.ts'
export { configuredBody, saveConfigured } from './save.ts'
export type { ConfiguredKind } from './save.ts'
export { typeJson } from './serialize.ts'
