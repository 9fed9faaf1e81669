import { BadRequest } from '../errors.ts'
import { SECRET_MASK, type ConfigurationSchema, type SchemaProperty } from '../shared/configuration-schema.ts'

/** Options checked against a schema: the plain ones, and the secret fields apart (they are stored sealed). */
export interface SplitOptions {
  options: Record<string, unknown>
  secrets: Record<string, unknown>
}

/**
 * Check submitted options against a type's schema and split secret fields off. A secret sent back as the mask
 * (or left empty when one is stored) keeps its stored value. Empty optional values are dropped (spec 3 §5).
 */
export function checkOptions(schema: ConfigurationSchema, input: unknown, stored?: SplitOptions): SplitOptions {
  if (input === undefined || input === null) input = {}
  if (typeof input !== 'object' || Array.isArray(input)) throw new BadRequest('options must be an object.')
  const secretFields = new Set(schema.secret ?? [])
  const out: SplitOptions = { options: {}, secrets: {} }
  for (const [key, raw] of Object.entries(input as Record<string, unknown>)) {
    const property = schema.properties[key]
    if (!property) throw new BadRequest(`Unknown option: ${key}.`)
    if (secretFields.has(key) && (raw === SECRET_MASK || ((raw === '' || raw == null) && stored?.secrets[key] !== undefined))) {
      if (stored?.secrets[key] !== undefined) out.secrets[key] = stored.secrets[key]
      continue
    }
    if (raw === '' || raw === null || raw === undefined) continue
    const value = coerce(key, property.type, raw, property.title)
    if (property.enum && !property.enum.includes(String(value))) {
      throw new BadRequest(`${property.title ?? key} must be one of: ${property.enum.join(', ')}.`)
    }
    if (property.extendedEnum && !property.extendedEnum.some((e) => e.value === value)) {
      throw new BadRequest(`${property.title ?? key} must be one of: ${property.extendedEnum.map((e) => e.value).join(', ')}.`)
    }
    ;(secretFields.has(key) ? out.secrets : out.options)[key] = value
  }
  for (const key of schema.required ?? []) {
    if (out.options[key] === undefined && out.secrets[key] === undefined) {
      throw new BadRequest(`${schema.properties[key]?.title ?? key}: This field is required.`)
    }
  }
  return out
}

function coerce(key: string, type: SchemaProperty['type'], raw: unknown, title?: string): unknown {
  const label = title ?? key
  if (type === 'number') {
    const n = typeof raw === 'number' ? raw : typeof raw === 'string' && raw.trim() !== '' ? Number(raw) : NaN
    if (!Number.isFinite(n)) throw new BadRequest(`${label} must be a number.`)
    return n
  }
  if (type === 'boolean') {
    if (typeof raw === 'boolean') return raw
    if (raw === 'true' || raw === 'false') return raw === 'true'
    throw new BadRequest(`${label} must be true or false.`)
  }
  if (typeof raw !== 'string' && typeof raw !== 'number') throw new BadRequest(`${label} must be text.`)
  const text = String(raw)
  if (text.length > 1_000_000) throw new BadRequest(`${label} is too long.`)
  return text
}

/** Options for the browser: secrets that are set show as the mask, never as their value. */
export function maskedOptions(schema: ConfigurationSchema, options: Record<string, unknown>, secrets: Record<string, unknown>) {
  const out: Record<string, unknown> = { ...options }
  for (const key of schema.secret ?? []) if (secrets[key] !== undefined) out[key] = SECRET_MASK
  return out
}
