import { createRequire } from 'node:module'
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
 *   `json` escapes a value for the inside of a JSON string, for templates that are JSON text themselves (Teams);
 * - `{{{ }}}` and `{{& }}` escape like `{{ }}`: no tag lets a value out of its channel's escaping;
 * - a template that would take too long or write too much is refused (TEMPLATE_BUDGET), not rendered for minutes.
 */
export type Escaping = 'html' | 'text' | 'slack' | 'json'

/** The rendering itself, in plain JavaScript: the template threads (template-pool.ts) load the very same code. */
interface RenderModule {
  TooLarge: new () => Error
  templateVariables(n: AlertNotification): Record<string, unknown>
  render(template: string, n: AlertNotification, escaping: Escaping, budgetBytes: number): string
  renderEach(items: TemplateItem[], n: AlertNotification, budgetBytes: number): RenderOutcome[]
}
export const RENDER_MODULE = createRequire(import.meta.url).resolve('./template-render.cjs')
const rendering = createRequire(import.meta.url)(RENDER_MODULE) as RenderModule

/** One template to render for one channel. */
export interface TemplateItem { template: string; escaping: Escaping }
/** What became of it: its text, or why not (`tooLarge`: over the output budget). */
export type RenderOutcome = { text: string } | { error: string; tooLarge?: true }

/**
 * What one template may cost: a template that renders longer or larger is refused as too complex (nested sections over
 * a hundred rows multiply: five levels would run for minutes). Time is enforced by the template threads, which are
 * ended when they go over; output, as it is written.
 */
export const TEMPLATE_BUDGET = { ms: 250, bytes: 1024 * 1024 }

/** A template that could not be rendered (an unclosed section, bad delimiters …): its message says why. */
export class TemplateError extends Error {}

export const TOO_COMPLEX = 'This template is too complex to render.'

/** A template over TEMPLATE_BUDGET. */
export class TemplateTooComplex extends TemplateError {
  constructor() {
    super(TOO_COMPLEX)
  }
}

/** The template variables of one notification (reference §1.6), before escaping. */
export const templateVariables = (n: AlertNotification): Record<string, unknown> => rendering.templateVariables(n)

/**
 * Render one template for a channel on this thread; throws TemplateError when it cannot be rendered. For Sightline's
 * own templates (the default texts), whose cost is bounded by the rows a notification carries; what users write goes
 * through template-pool.ts.
 */
export function renderTemplate(template: string, n: AlertNotification, escaping: Escaping): string {
  const [outcome] = renderInProcess([{ template, escaping }], n)
  if ('error' in outcome) throw outcome.tooLarge ? new TemplateTooComplex() : new TemplateError(outcome.error)
  return outcome.text
}

/** Templates rendered on this thread, each to its text or its error. */
export const renderInProcess = (items: TemplateItem[], n: AlertNotification): RenderOutcome[] =>
  rendering.renderEach(items, n, TEMPLATE_BUDGET.bytes)

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
  /** A custom template was over TEMPLATE_BUDGET. */
  tooComplex?: boolean
}

/** The custom templates of a notification as items to render: the subject first, then the body, where set. */
export function customItems(n: AlertNotification, escaping: Escaping, subjectEscaping: Escaping = escaping === 'html' ? 'text' : escaping) {
  const templates = customTemplates(n.alert.options ?? {})
  const labelled: { label: string; item: TemplateItem; key: 'subject' | 'body' }[] = []
  if (templates.subject !== null) labelled.push({ label: 'Custom subject', key: 'subject', item: { template: templates.subject, escaping: subjectEscaping } })
  if (templates.body !== null) labelled.push({ label: 'Custom body', key: 'body', item: { template: templates.body, escaping } })
  return labelled
}

/** The custom texts from what rendering their items gave (`outcomes` in the order of `customItems`). */
export function customTextsFrom(labelled: ReturnType<typeof customItems>, outcomes: RenderOutcome[]): CustomTexts {
  const texts: CustomTexts = { subject: null, body: null }
  const errors: string[] = []
  labelled.forEach(({ label, key }, i) => {
    const outcome = outcomes[i]
    if ('text' in outcome) texts[key] = outcome.text
    else {
      if (outcome.tooLarge) texts.tooComplex = true
      errors.push(`${label}: ${outcome.tooLarge ? TOO_COMPLEX : outcome.error}`)
    }
  })
  // a subject is one line
  if (texts.subject !== null) texts.subject = oneLine(texts.subject)
  if (errors.length) texts.error = errors.join(' ')
  return texts
}

/** `escaping` is the body's; a subject is a line of text (a mail header, a card title), `text` unless told. On this thread. */
export function renderCustomTexts(n: AlertNotification, escaping: Escaping, subjectEscaping?: Escaping): CustomTexts {
  const labelled = customItems(n, escaping, subjectEscaping)
  return customTextsFrom(labelled, renderInProcess(labelled.map((l) => l.item), n))
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
 * On this thread; the alert editor's preview renders the custom templates in a template thread (template-pool.ts).
 */
export function renderAlertTemplate(n: AlertNotification, escaping: Escaping = 'html', o: { subjectTemplate?: unknown } = {}): RenderedAlert {
  return alertTemplateWith(renderCustomTexts(n, escaping), n, escaping, o)
}

/** The rendered alert from its custom texts (rendered here or in a template thread) and the defaults. */
export function alertTemplateWith(custom: CustomTexts, n: AlertNotification, escaping: Escaping, o: { subjectTemplate?: unknown } = {}): RenderedAlert {
  return {
    subject: custom.subject ?? defaultSubject(n, o.subjectTemplate),
    body: custom.body ?? renderTemplate(escaping === 'html' ? DEFAULT_MAIL_BODY : DEFAULT_MAIL_TEXT, n, escaping),
    custom: { subject: custom.subject !== null, body: custom.body !== null },
    ...(custom.error ? { error: custom.error } : {}),
  }
}
