import { useId, useState, type FormEvent, type JSX } from 'react'
import { SECRET_MASK, type ConfigurationSchema, type SchemaProperty } from '../../src/shared/configuration-schema.ts'
import { texts } from '../../src/shared/texts.ts'
import { ui } from './ui.ts'

const t = texts.dynamicForm

/**
 * A configuration form drawn from a type's configuration schema (spec 3 §3 and §5), shared by data sources and
 * alert destinations: the schema is the one the server checks against (src/shared/configuration-schema.ts).
 */
export type FormSchema = ConfigurationSchema

export interface FormValues {
  name: string
  options: Record<string, unknown>
}

type Kind = 'text' | 'email' | 'password' | 'number' | 'checkbox' | 'select' | 'file'

export interface Field {
  key: string
  label: string
  kind: Kind
  required: boolean
  minLength?: number
  choices?: { value: string; label: string }[]
  extra: boolean
  /** Sealed at rest: a stored value comes back as the mask, whatever kind of field draws it. */
  secret: boolean
}

const humanize = (key: string) => key.replace(/_/g, ' ').replace(/^\w/, (c) => c.toUpperCase())

/**
 * The control a property gets (spec 3 §3). Only `password`/`passwd` hide what is typed: other secrets (a webhook's
 * URL, a token) are sealed once saved but stay readable while the admin types them.
 */
function kindOf(key: string, p: SchemaProperty): Kind {
  if (p.enum || p.extendedEnum) return 'select'
  if (p.type === 'boolean') return 'checkbox'
  if (key.endsWith('File')) return 'file'
  if (key === 'password' || key === 'passwd') return 'password'
  if (p.type === 'number') return 'number'
  if (p.type === 'email' || p.format === 'email') return 'email'
  return 'text'
}

/** The schema's properties as form fields: those in `order` first, then the rest as declared. */
export function schemaFields(schema: FormSchema): Field[] {
  const keys = Object.keys(schema.properties)
  const ordered = [...(schema.order ?? []).filter((k) => k in schema.properties), ...keys.filter((k) => !(schema.order ?? []).includes(k))]
  const required = new Set(schema.required ?? [])
  const secret = new Set(schema.secret ?? [])
  const extra = new Set(schema.extra_options ?? [])
  return ordered.map((key) => {
    const p = schema.properties[key]
    const kind = kindOf(key, p)
    const choices = p.extendedEnum?.map((e) => ({ value: e.value, label: e.name })) ?? p.enum?.map((v) => ({ value: v, label: v }))
    return { key, label: p.title ?? humanize(key), kind, required: required.has(key), minLength: p.minLength, choices, extra: extra.has(key), secret: secret.has(key) }
  })
}

type Value = string | boolean

const isEmpty = (v: unknown) => v === undefined || v === null || v === ''

/**
 * A select's starting value: one of its choices, so the option it shows is the value a save sends (a value the
 * choices lack would show as the first option while another is kept). Required: the default, else the first choice.
 */
function selectValue(schema: FormSchema, f: Field, v: unknown): string {
  const choices = f.choices ?? []
  if (!isEmpty(v) && choices.some((c) => c.value === String(v))) return String(v)
  if (!f.required) return ''
  const fallback = schema.properties[f.key].default
  return String(choices.some((c) => c.value === String(fallback)) ? fallback : choices[0]?.value ?? '')
}

function initialValues(schema: FormSchema, fields: Field[], options: Record<string, unknown>, isNew: boolean): Record<string, Value> {
  const out: Record<string, Value> = {}
  for (const f of fields) {
    const stored = options[f.key]
    // an engine reads a switch or a choice it does not find as its default, so that is what shows (and is then saved)
    const fallback = isNew || f.kind === 'checkbox' || f.kind === 'select' ? schema.properties[f.key].default : undefined
    const v = stored ?? fallback
    if (f.kind === 'checkbox') out[f.key] = v === true || v === 'true'
    else if (f.kind === 'select') out[f.key] = selectValue(schema, f, v)
    else out[f.key] = isEmpty(v) ? '' : String(v)
  }
  return out
}

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/

function check(f: Field, v: Value): string | undefined {
  if (f.kind === 'checkbox') return undefined
  const text = String(v)
  if (f.required && text.trim() === '') return t.required
  if (text !== '' && f.minLength && text.length < f.minLength && ['text', 'email', 'password'].includes(f.kind) && text !== SECRET_MASK) {
    return t.tooShort
  }
  if (text !== '' && f.kind === 'email' && !EMAIL.test(text)) return t.invalidEmail
  return undefined
}

/** The options to send: typed values; empty optional values that were empty to begin with are left out (spec 3 §5). */
function payload(fields: Field[], values: Record<string, Value>, initial: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {}
  for (const f of fields) {
    const v = values[f.key]
    if (f.kind === 'checkbox') {
      out[f.key] = v === true
      continue
    }
    if (v === '' && isEmpty(initial[f.key])) continue
    out[f.key] = f.kind === 'number' && v !== '' ? Number(v) : v
  }
  return out
}

function fileAsBase64(file: File): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader()
    reader.onload = () => resolve(String(reader.result).replace(/^data:[^,]*,/, ''))
    reader.onerror = () => reject(reader.error)
    reader.readAsDataURL(file)
  })
}

export interface DynamicFormProps {
  /** The form element's id: submit buttons elsewhere (a dialog footer) point at it with `form=`. */
  id: string
  schema: FormSchema
  initial: FormValues
  /** A new target starts from the schema's defaults; an existing one from its stored options. */
  isNew: boolean
  disabled?: boolean
  autoFocus?: boolean
  onSubmit(values: FormValues): void | Promise<void>
}

/**
 * The form: Name first, then the schema's fields, the extra options folded under 'Additional Settings'. Validates
 * on submit (then as the user types), focuses the first field in error, and hands typed values to `onSubmit`.
 */
export function DynamicForm({ id, schema, initial, isNew, disabled, autoFocus, onSubmit }: DynamicFormProps): JSX.Element {
  const uid = useId()
  const fields = schemaFields(schema)
  const nameField: Field = { key: 'name', label: t.name, kind: 'text', required: true, extra: false, secret: false }
  const [name, setName] = useState(initial.name)
  const [values, setValues] = useState(() => initialValues(schema, fields, initial.options, isNew))
  const [fileNames, setFileNames] = useState<Record<string, string>>({})
  const [errors, setErrors] = useState<Record<string, string>>({})
  const [submitted, setSubmitted] = useState(false)
  const [showExtra, setShowExtra] = useState(false)
  const fieldId = (key: string) => `${uid}-${key}`

  function validate(nextName: string, next: Record<string, Value>): Record<string, string> {
    const found: Record<string, string> = {}
    const nameError = check(nameField, nextName)
    if (nameError) found.name = nameError
    for (const f of fields) {
      const error = check(f, next[f.key])
      if (error) found[f.key] = error
    }
    return found
  }

  function change(key: string, v: Value) {
    const next = { ...values, [key]: v }
    setValues(next)
    if (submitted) setErrors(validate(name, next))
  }

  async function submit(event: FormEvent) {
    event.preventDefault()
    if (disabled) return
    setSubmitted(true)
    const found = validate(name, values)
    setErrors(found)
    const keys = Object.keys(found)
    if (keys.length) {
      if (fields.some((f) => f.extra && found[f.key])) setShowExtra(true)
      const first = ['name', ...fields.map((f) => f.key)].find((k) => found[k])!
      // after the extra section has opened
      setTimeout(() => document.getElementById(fieldId(first))?.focus(), 0)
      return
    }
    await onSubmit({ name: name.trim(), options: payload(fields, values, initial.options) })
  }

  function render(f: Field, value: Value, onValue: (v: Value) => void, first = false): JSX.Element {
    const inputId = fieldId(f.key)
    const error = errors[f.key]
    const errorId = `${inputId}-error`
    const hintId = `${inputId}-hint`
    const border = error ? 'border-red-500 dark:border-red-500' : ui.inputBorder
    const common = {
      id: inputId, name: f.key, disabled, 'aria-invalid': error ? true : undefined,
      'aria-required': f.required || undefined, autoFocus: first && autoFocus,
    }
    const errorText = error && <p id={errorId} className="mt-1 text-xs text-red-600 dark:text-red-400">{error}</p>

    if (f.kind === 'checkbox') {
      return (
        <div key={f.key} className="flex items-center gap-2">
          <input {...common} type="checkbox" checked={value === true} onChange={(e) => onValue(e.target.checked)}
            className="h-4 w-4 rounded border-slate-300 accent-indigo-600" />
          <label htmlFor={inputId} className="text-sm text-slate-700 dark:text-slate-300">{f.label}</label>
        </div>
      )
    }

    let control: JSX.Element
    let hint: string | undefined
    const describedBy = (withHint: boolean) => [error ? errorId : '', withHint ? hintId : ''].filter(Boolean).join(' ') || undefined
    if (f.kind === 'select') {
      control = (
        <select {...common} value={String(value)} onChange={(e) => onValue(e.target.value)} aria-describedby={describedBy(false)}
          className={`${ui.input} ${border}`}>
          {!f.required && <option value="" />}
          {f.choices!.map((c) => <option key={c.value} value={c.value}>{c.label}</option>)}
        </select>
      )
    } else if (f.kind === 'file') {
      const chosen = fileNames[f.key]
      hint = chosen ?? (value ? t.fileStored : t.noFile)
      control = (
        <input {...common} type="file" aria-describedby={describedBy(true)}
          onChange={async (e) => {
            const file = e.target.files?.[0]
            if (!file) return
            try {
              const content = await fileAsBase64(file)
              setFileNames((n) => ({ ...n, [f.key]: file.name }))
              onValue(content)
            } catch {
              setErrors((all) => ({ ...all, [f.key]: t.fileRead }))
            }
          }}
          className={`block w-full text-sm text-slate-700 file:mr-3 file:rounded-md file:border file:border-slate-300 file:bg-white file:px-3 file:py-1.5 file:text-sm file:font-medium file:text-slate-700 hover:file:bg-slate-50 dark:text-slate-300 dark:file:border-slate-600 dark:file:bg-slate-800 dark:file:text-slate-200`} />
      )
    } else {
      const type = f.kind === 'number' ? 'number' : f.kind === 'password' ? 'password' : f.kind === 'email' ? 'email' : 'text'
      const placeholder = schema.properties[f.key]?.default
      control = (
        <input {...common} type={type} value={String(value)} onChange={(e) => onValue(e.target.value)}
          onFocus={value === SECRET_MASK ? (e) => e.target.select() : undefined}
          placeholder={placeholder === undefined || typeof placeholder === 'boolean' ? undefined : String(placeholder)}
          autoComplete={f.kind === 'password' || f.secret ? 'new-password' : 'off'} spellCheck={false} aria-describedby={describedBy(false)}
          step={f.kind === 'number' ? 'any' : undefined}
          className={`${ui.input} ${border}`} />
      )
    }
    return (
      <div key={f.key}>
        <label htmlFor={inputId} className={ui.label}>{f.label}</label>
        {control}
        {hint && !error && <p id={hintId} className="mt-1 text-xs text-slate-500 dark:text-slate-400">{hint}</p>}
        {errorText}
      </div>
    )
  }

  const main = fields.filter((f) => !f.extra)
  const extra = fields.filter((f) => f.extra)
  const extraId = `${uid}-extra`
  return (
    <form id={id} noValidate onSubmit={submit} className="flex flex-col gap-4" aria-busy={disabled || undefined}>
      {render(nameField, name, (v) => {
        setName(String(v))
        if (submitted) setErrors(validate(String(v), values))
      }, true)}
      {main.map((f) => render(f, values[f.key], (v) => change(f.key, v)))}
      {extra.length > 0 && (
        <div className="rounded-md border border-slate-200 dark:border-slate-700">
          <button type="button" aria-expanded={showExtra} aria-controls={extraId} onClick={() => setShowExtra(!showExtra)}
            className="flex w-full items-center justify-between rounded-md px-3 py-2 text-sm font-medium text-slate-700 hover:bg-slate-50 focus-visible:outline-2 focus-visible:outline-indigo-500 dark:text-slate-200 dark:hover:bg-slate-800">
            {t.additionalSettings}
            <svg viewBox="0 0 24 24" className={`h-4 w-4 transition-transform ${showExtra ? 'rotate-180' : ''}`} fill="none" stroke="currentColor"
              strokeWidth={2} strokeLinecap="round" strokeLinejoin="round" aria-hidden="true"><path d="M6 9l6 6 6-6" /></svg>
          </button>
          <div id={extraId} hidden={!showExtra} className="flex flex-col gap-4 border-t border-slate-200 px-3 py-3 dark:border-slate-700">
            {extra.map((f) => render(f, values[f.key], (v) => change(f.key, v)))}
          </div>
        </div>
      )}
    </form>
  )
}
