import type { TypeJson } from '../configuration-schema.ts'

/** A destination as `GET api/destinations` lists it for everyone, and as alert subscriptions carry it (§1.7). */
export interface DestinationSummaryJson {
  id: number
  name: string
  type: string
  /** The type's icon; the generic one for a type this installation lacks. */
  icon: string
}

/** One destination as an admin reads it: its options with set secrets shown as the mask. */
export interface DestinationJson extends DestinationSummaryJson {
  options: Record<string, unknown>
}

/** A type as `GET api/destinations/types` answers (reference §1.7). */
export interface DestinationTypeJson extends TypeJson {
  icon: string
}
