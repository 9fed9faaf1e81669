/**
 * The configuration schema of a kind of configured thing (a data source type, an alert destination type): it draws
 * the admin's form in the browser and checks what the server stores (spec 3 §3). Shared by both sides, so the
 * form (islands/lib/DynamicForm.tsx) and the server (src/type-registry/) read one definition.
 */
export interface SchemaProperty {
  /** 'email' is text the form checks as an address; the server stores it as text. */
  type: 'string' | 'number' | 'boolean' | 'email'
  title?: string
  default?: string | number | boolean
  enum?: string[]
  extendedEnum?: { value: string; name: string }[]
  minLength?: number
  format?: string
}

/**
 * `secret` lists the fields sealed at rest and never sent back to the browser; `extra_options` those the form folds
 * under Additional Settings; `order` the fields shown first.
 */
export interface ConfigurationSchema {
  type?: 'object'
  properties: Record<string, SchemaProperty>
  required?: string[]
  order?: string[]
  extra_options?: string[]
  secret?: string[]
}

/** What the browser gets instead of a stored secret; sent back unchanged, it keeps the stored value. */
export const SECRET_MASK = '--------'

/** One type as a `/types` answer lists it (reference §6.5, "Data sources"): what the create dialog offers. */
export interface TypeJson {
  type: string
  name: string
  deprecated: boolean
  configuration_schema: ConfigurationSchema
}
