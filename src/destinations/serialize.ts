import type { DestinationJson, DestinationSummaryJson, DestinationTypeJson } from '../shared/api/destinations.ts'
import { typeJson } from '../type-registry/index.ts'
import type { DestinationKind } from './kinds/kind.ts'
import type { DestinationRow } from './store.ts'
import { destinationTypes } from './types.ts'

/** The icon of a type; a type this installation does not have gets the generic one. */
export const iconOf = (type: string) => destinationTypes.get(type)?.icon ?? 'fa-bolt'

/** A destination as `GET api/destinations` lists it for everyone (and as alert subscriptions carry it). */
export function destinationSummaryJson(row: Pick<DestinationRow, 'id' | 'name' | 'type'>): DestinationSummaryJson {
  return { id: row.id, name: row.name, type: row.type, icon: iconOf(row.type) }
}

/** One destination as an admin reads it: its options with set secrets shown as the mask. */
export function destinationJson(row: DestinationRow, secretKey: string): DestinationJson {
  return { ...destinationSummaryJson(row), options: destinationTypes.toShow(secretKey, row) ?? {} }
}

/** A type as `GET api/destinations/types` answers (reference §1.7): name, type, icon, schema, deprecated. */
export function destinationTypeJson(kind: DestinationKind): DestinationTypeJson {
  return { ...typeJson(kind), icon: kind.icon }
}
