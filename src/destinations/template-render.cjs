// @ts-check
'use strict'
/*
 * Mustache rendering of alert templates, as pure functions over a notification. Plain JavaScript so that the same code
 * runs on the main thread (Sightline's own default templates) and, unchanged, in the template threads
 * (template-pool.ts) that render what users write, under Node, tsx, Vitest and Deno alike, with no TypeScript loader
 * in the thread. template.ts is its typed face.
 */
const Mustache = require('mustache')

/** More output than the budget allows: the template is refused, never cut (a cut body would say something else). */
class TooLarge extends Error {}

const HTML_ESCAPES = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' }
const SLACK_ESCAPES = { '&': '&amp;', '<': '&lt;', '>': '&gt;' }

/**
 * Per channel: HTML for mail (and HTML-reading chats; the same as mail/message.ts's escapeHtml), Slack's three
 * characters for Slack, nothing for payloads built as objects and encoded with JSON.stringify (always valid), and the
 * inside of a JSON string for templates that are JSON text themselves (Teams).
 * @type {Record<string, (text: string) => string>}
 */
const escapes = {
  html: (text) => text.replace(/[&<>"']/g, (c) => HTML_ESCAPES[/** @type {keyof typeof HTML_ESCAPES} */ (c)]),
  text: (text) => text,
  slack: (text) => text.replace(/[&<>]/g, (c) => SLACK_ESCAPES[/** @type {keyof typeof SLACK_ESCAPES} */ (c)]),
  json: (text) => JSON.stringify(text).slice(1, -1),
}

/** @param {unknown} value */
const text = (value) => (value === null || value === undefined ? '' : typeof value === 'string' ? value : String(value))

/**
 * A value as templates see it: plain data with no prototype (so `{{constructor}}` finds nothing), dates as ISO text,
 * and lists and objects that print as JSON when used as a value.
 * @param {unknown} value
 * @returns {unknown}
 */
function viewValue(value) {
  if (value instanceof Date) return value.toISOString()
  if (typeof value === 'bigint') return value.toString()
  if (value === null || typeof value !== 'object') return value
  const json = JSON.stringify(value, (_key, v) => (typeof v === 'bigint' ? v.toString() : v))
  const out = Array.isArray(value)
    ? value.map(viewValue)
    : Object.assign(Object.create(null), Object.fromEntries(Object.entries(value).map(([k, v]) => [k, viewValue(v)])))
  Object.defineProperty(out, 'toString', { value: () => json, enumerable: false })
  return out
}

/**
 * The template variables of one notification (reference §1.6), before escaping.
 * @param {any} n an AlertNotification (notification.ts)
 * @returns {Record<string, unknown>}
 */
function templateVariables(n) {
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
    QUERY_RESULT_COLS: columns.map((/** @type {any} */ c) => ({ name: c.name, friendly_name: c.friendly_name, type: c.type })),
    QUERY_RESULT_TABLE: rows.map((/** @type {any} */ row) => columns.map((/** @type {any} */ c) => row[c.name] ?? null)),
  }
}

/**
 * A writer of our own: no parse cache (templates come from users, and the preview renders each keystroke, so a cache
 * keyed by template text would only grow); `{{{ }}}` and `{{& }}` escape for the channel like `{{ }}` (a value in a
 * mail, a chat or a JSON template must never become markup, a mention or JSON of its own); and output counted as it
 * grows, so a runaway section stops at the budget instead of filling memory first.
 */
/** @type {any} */
const writer = new Mustache.Writer()
writer.templateCache = undefined
writer.renderTokens = function renderTokens(/** @type {any[]} */ tokens, /** @type {any} */ context, /** @type {any} */ partials, /** @type {string} */ originalTemplate, /** @type {any} */ config) {
  let buffer = ''
  for (const token of tokens) {
    const symbol = token[0]
    let value
    if (symbol === '#') value = this.renderSection(token, context, partials, originalTemplate, config)
    else if (symbol === '^') value = this.renderInverted(token, context, partials, originalTemplate, config)
    else if (symbol === '&' || symbol === 'name') value = this.escapedValue(token, context, config)
    else if (symbol === 'text') value = this.rawValue(token)
    // partials ('>') render nothing: alert templates have none, and a partial named by a value is no template of theirs
    if (value !== undefined) {
      buffer += value
      if (buffer.length > config.budgetChars) throw new TooLarge()
    }
  }
  return buffer
}

/**
 * Render one template for a channel. Throws TooLarge past `budgetBytes` of UTF-8, and Mustache's own errors (an
 * unclosed section, bad delimiters …) for a template that cannot be rendered.
 * @param {string} template
 * @param {any} n
 * @param {string} escaping
 * @param {number} budgetBytes
 */
function render(template, n, escaping, budgetBytes) {
  const view = Object.assign(Object.create(null), Object.fromEntries(Object.entries(templateVariables(n)).map(([k, v]) => [k, viewValue(v)])))
  const escape = escapes[escaping] ?? escapes.html
  // a UTF-16 unit is at most 3 bytes of UTF-8: counting units while rendering stops a runaway early, the bytes decide
  const out = writer.render(template, view, undefined, { escape: (/** @type {unknown} */ value) => escape(text(value)), budgetChars: budgetBytes })
  if (Buffer.byteLength(out) > budgetBytes) throw new TooLarge()
  return out
}

/**
 * Several templates of one notification: each its text, or why it could not be rendered.
 * @param {{ template: string, escaping: string }[]} items
 * @param {any} n
 * @param {number} budgetBytes
 * @returns {({ text: string } | { error: string, tooLarge?: true })[]}
 */
function renderEach(items, n, budgetBytes) {
  return items.map(({ template, escaping }) => {
    try {
      return { text: render(template, n, escaping, budgetBytes) }
    } catch (e) {
      if (e instanceof TooLarge) return { error: 'too large', tooLarge: true }
      return { error: (e instanceof Error && e.message) || 'The template could not be rendered.' }
    }
  })
}

/**
 * On Linux, a thread has a nice value of its own: a template thread yields the CPU to the event loop that answers
 * requests when the machine is busy (its budget is wall time, so a runaway still ends on time). Moderately: what
 * a sensible template needs, about a millisecond, must still come well within the budget on a loaded machine.
 */
const TEMPLATE_THREAD_NICE = 10
function lowerPriority() {
  try {
    const tid = Number(require('node:fs').readlinkSync('/proc/thread-self').split('/').pop())
    if (Number.isInteger(tid) && tid > 0) require('node:os').setPriority(tid, TEMPLATE_THREAD_NICE)
  } catch {
    // not Linux, or not allowed: the thread runs at the process's priority
  }
}

/**
 * A template thread's loop: says `ready` once loaded, then answers each `{id, items, n, budgetBytes}` in turn.
 * @param {import('node:worker_threads').MessagePort} port
 */
function serveThread(port) {
  lowerPriority()
  port.on('message', (/** @type {any} */ m) => port.postMessage({ id: m.id, results: renderEach(m.items, m.n, m.budgetBytes) }))
  port.postMessage('ready')
}

module.exports = { TooLarge, escapes, templateVariables, render, renderEach, serveThread }
