import Mustache from 'mustache'
import { escapeHtml } from '../mail/message.ts'
import type { AlertNotification } from './notification.ts'

/**
 * Alert templates (reference §1.6): Mustache with the established tool's variable names. Pure (no I/O), so the
 * alert editor's preview renders exactly what a destination sends.
 *
 * Differences from the established tool, on purpose:
 * - lists (`QUERY_RESULT_ROWS`, `QUERY_RESULT_COLS`, `QUERY_RESULT_TABLE`, a row inside a section) render as JSON,
 *   not as Python's repr; they still iterate in sections (`{{#QUERY_RESULT_TABLE}}{{#.}}{{.}} {{/.}}{{/…}}`);
 * - `ALERT_SELECTOR` defaults to `first`, so a template (and the default mail body) never fails for its absence;
 * - values are escaped per channel: HTML for mail (and HTML-reading chats), Slack's three characters for Slack,
 *   nothing for the other chat payloads, which are built as objects and encoded with JSON.stringify (always valid);
 *   `json` escapes a value for the inside of a JSON string, for templates that are JSON text themselves (Teams).
 */
export type Escaping = 'html' | 'text' | 'slack' | 'json'

const SLACK_ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;' }

const escapes: Record<Escaping, (text: string) => string> = {
  html: escapeHtml,
  text: (text) => text,
  slack: (text) => text.replace(/[&<>]/g, (c) => SLACK_ESCAPES[c]),
  json: (text) => JSON.stringify(text).slice(1, -1),
}

/** A template that could not be rendered (an unclosed section, bad delimiters …): its message says why. */
export class TemplateError extends Error {}

/** The longest text a template may render to; longer is a template error (a runaway section over many rows). */
export const MAX_RENDERED_CHARS = 200_000

// Our own writer without its parse cache: templates come from users (and the preview renders each keystroke), so a
// cache keyed by template text would only grow.
const writer = new Mustache.Writer()
;(writer as unknown as { templateCache: undefined }).templateCache = undefined

/**
 * A value as templates see it: plain data with no prototype (so `{{constructor}}` finds nothing), dates as ISO text,
 * and lists and objects that print as JSON when used as a value.
 */
function viewValue(value: unknown): unknown {
  if (value instanceof Date) return value.toISOString()
  if (typeof value === 'bigint') return value.toString()
  if (value === null || typeof value !== 'object') return value
  const json = JSON.stringify(value, (_key, v) => (typeof v === 'bigint' ? v.toString() : v))
  const out: Record<string, unknown> | unknown[] = Array.isArray(value)
    ? value.map(viewValue)
    : Object.assign(Object.create(null) as Record<string, unknown>,
      Object.fromEntries(Object.entries(value).map(([k, v]) => [k, viewValue(v)])))
  Object.defineProperty(out, 'toString', { value: () => json, enumerable: false })
  return out
}

const text = (value: unknown): string => (value === null || value === undefined ? '' : typeof value === 'string' ? value : String(value))

/** The template variables of one notification (reference §1.6), before escaping. */
export function templateVariables(n: AlertNotification): Record<string, unknown> {
  const options = n.alert.options ?? {}
  const columns = n.result?.columns ?? []
  const rows = n.result?.rows ?? []
  const column = typeof options.column === 'string' ? options.column : undefined
  const firstRow = rows[0]
  return {
    ALERT_NAME: n.alert.name,
    ALERT_URL: n.alert.url,
    ALERT_STATUS: n.alert.state.toUpperCase(),
    ALERT_SELECTOR: typeof options.selector === 'string' && options.selector ? options.selector : 'first',
    ALERT_CONDITION: options.op ?? '',
    ALERT_THRESHOLD: options.value ?? '',
    QUERY_NAME: n.query.name,
    QUERY_URL: n.query.url,
    // always row 0, as the established tool does (the selector's value is `n.value`)
    QUERY_RESULT_VALUE: column !== undefined && firstRow && column in firstRow ? firstRow[column] : null,
    QUERY_RESULT_ROWS: rows,
    QUERY_RESULT_COLS: columns.map((c) => ({ name: c.name, friendly_name: c.friendly_name, type: c.type })),
    QUERY_RESULT_TABLE: rows.map((row) => columns.map((c) => row[c.name] ?? null)),
  }
}

/** Render one template for a channel; throws TemplateError when it cannot be rendered. */
export function renderTemplate(template: string, n: AlertNotification, escaping: Escaping): string {
  const variables = templateVariables(n)
  const view = Object.assign(Object.create(null) as Record<string, unknown>,
    Object.fromEntries(Object.entries(variables).map(([k, v]) => [k, viewValue(v)])))
  const escape = escapes[escaping]
  let out: string
  try {
    out = writer.render(template, view, undefined, { escape: (value: unknown) => escape(text(value)) })
  } catch (error) {
    throw new TemplateError((error as Error).message || 'The template could not be rendered.')
  }
  if (out.length > MAX_RENDERED_CHARS) throw new TemplateError(`The template renders to more than ${MAX_RENDERED_CHARS} characters.`)
  return out
}

/** A custom subject or body as stored in the alert's options (`template` is the legacy name of `custom_body`). */
export function customTemplates(options: Record<string, unknown>): { subject: string | null; body: string | null } {
  const pick = (v: unknown) => (typeof v === 'string' && v.trim() !== '' ? v : null)
  return { subject: pick(options.custom_subject), body: pick(options.custom_body) ?? pick(options.template) }
}

/** The alert's custom subject and body rendered for a channel; null where there is none, or where it failed. */
export interface CustomTexts {
  subject: string | null
  body: string | null
  /** Why a custom template failed (the kind then sends its default text). */
  error?: string
}

/** `escaping` is the body's; a subject is a line of text (a mail header, a card title), `text` unless told. */
export function renderCustomTexts(n: AlertNotification, escaping: Escaping, subjectEscaping: Escaping = escaping === 'html' ? 'text' : escaping): CustomTexts {
  const templates = customTemplates(n.alert.options ?? {})
  const errors: string[] = []
  const one = (label: string, template: string | null, how: Escaping) => {
    if (template === null) return null
    try {
      return renderTemplate(template, n, how)
    } catch (error) {
      errors.push(`${label}: ${(error as Error).message}`)
      return null
    }
  }
  const subject = one('Custom subject', templates.subject, subjectEscaping)
  const body = one('Custom body', templates.body, escaping)
  // a subject is one line
  return { subject: subject === null ? null : oneLine(subject), body, ...(errors.length ? { error: errors.join(' ') } : {}) }
}

export const oneLine = (s: string) => s.replace(/\s+/g, ' ').trim()

/** The established tool's mail subject template (REDASH_ALERTS_DEFAULT_MAIL_SUBJECT_TEMPLATE): `{alert_name}`, `{state}`. */
export const DEFAULT_SUBJECT_TEMPLATE = 'Alert: {alert_name} changed status to {state}'

/** Python's `str.format` for the named fields a legacy option template uses; other braces stay as they are. */
export function formatLegacy(template: string, fields: Record<string, string>): string {
  return template.replace(/\{([a-z_]+)\}/g, (whole, name: string) => (name in fields ? fields[name] : whole))
}

/** The subject of a mail with no custom subject: the destination's `subject_template`, or the default one. */
export function defaultSubject(n: AlertNotification, subjectTemplate?: unknown): string {
  const template = typeof subjectTemplate === 'string' && subjectTemplate.trim() ? subjectTemplate : DEFAULT_SUBJECT_TEMPLATE
  return oneLine(formatLegacy(template, { alert_name: n.alert.name, state: n.alert.state.toUpperCase() }))
}

/** The default mail body (the established tool's alert.html, without its need of a selector). */
export const DEFAULT_MAIL_BODY = `<div style="font-family: sans-serif; line-height: 1.5">
<h2 style="margin: 0 0 8px"><a href="{{ALERT_URL}}">{{ALERT_NAME}}</a></h2>
<p style="margin: 0 0 4px"><strong>STATUS: {{ALERT_STATUS}}</strong></p>
<p style="margin: 0 0 4px">CONDITION: {{QUERY_RESULT_VALUE}} {{ALERT_CONDITION}} {{ALERT_THRESHOLD}}</p>
<p style="margin: 0 0 12px">QUERY: <a href="{{QUERY_URL}}">{{QUERY_NAME}}</a></p>
<table style="border-collapse: collapse" border="1" cellpadding="4">
<thead><tr>{{#QUERY_RESULT_COLS}}<th>{{friendly_name}}</th>{{/QUERY_RESULT_COLS}}</tr></thead>
<tbody>{{#QUERY_RESULT_TABLE}}<tr>{{#.}}<td>{{.}}</td>{{/.}}</tr>{{/QUERY_RESULT_TABLE}}</tbody>
</table>
</div>
`

/** The plain-text part of the default mail. */
export const DEFAULT_MAIL_TEXT = `{{ALERT_NAME}}
STATUS: {{ALERT_STATUS}}
CONDITION: {{QUERY_RESULT_VALUE}} {{ALERT_CONDITION}} {{ALERT_THRESHOLD}}
Alert: {{ALERT_URL}}
Query: {{QUERY_NAME}} {{QUERY_URL}}
`

/** What the alert editor's preview shows, and what a mail carries: subject and body, custom or default. */
export interface RenderedAlert {
  subject: string
  body: string
  /** Whether the subject and body came from the alert's own templates. */
  custom: { subject: boolean; body: boolean }
  /** Why a custom template failed; the default text stands in its place. */
  error?: string
}

/**
 * Render an alert's subject and body as a mail would carry them (`html`) or as plain text (`text`): the custom
 * templates of `n.alert.options` when set, the default subject and body otherwise or when a custom one fails.
 * Pure: the alert editor's preview API calls it with a sample notification.
 */
export function renderAlertTemplate(n: AlertNotification, escaping: Escaping = 'html', o: { subjectTemplate?: unknown } = {}): RenderedAlert {
  const custom = renderCustomTexts(n, escaping)
  return {
    subject: custom.subject ?? defaultSubject(n, o.subjectTemplate),
    body: custom.body ?? renderTemplate(escaping === 'html' ? DEFAULT_MAIL_BODY : DEFAULT_MAIL_TEXT, n, escaping),
    custom: { subject: custom.subject !== null, body: custom.body !== null },
    ...(custom.error ? { error: custom.error } : {}),
  }
}
