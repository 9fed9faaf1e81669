import type { AlertNotification } from '../notification.ts'
import { destinationUrl, send } from '../http.ts'
import { formatLegacy, TemplateError, type CustomTexts } from '../template.ts'
import { optionText, stateLine, type DestinationKind, type SendInput } from './kind.ts'

const ADAPTIVE = 'application/vnd.microsoft.card.adaptive'

function title(n: AlertNotification, texts: CustomTexts): string {
  if (texts.subject !== null) return texts.subject
  return n.alert.state === 'unknown' ? `${n.alert.name} is in an unknown state` : stateLine(n)
}

/** A card in a Teams workflow message: `{type: "message", attachments: [{contentType, content: card}]}`. */
const message = (card: Record<string, unknown>) => ({ type: 'message', attachments: [{ contentType: ADAPTIVE, contentUrl: null, content: card }] })

/** The default card: title (red when triggered), the facts, the custom body, and buttons to the alert and query. */
export function defaultCard(n: AlertNotification, texts: CustomTexts) {
  const body: Record<string, unknown>[] = [
    { type: 'TextBlock', text: title(n, texts), weight: 'Bolder', size: 'Medium', wrap: true, color: n.alert.state === 'triggered' ? 'Attention' : n.alert.state === 'ok' ? 'Good' : 'Warning' },
    { type: 'FactSet', facts: [
      { title: 'Alert', value: n.alert.name },
      { title: 'State', value: n.alert.state.toUpperCase() },
      { title: 'Query', value: n.query.name },
    ] },
  ]
  if (texts.body !== null) body.push({ type: 'TextBlock', text: texts.body, wrap: true })
  return message({
    $schema: 'http://adaptivecards.io/schemas/adaptive-card.json',
    type: 'AdaptiveCard',
    version: '1.4',
    body,
    actions: [
      { type: 'Action.OpenUrl', title: 'Open Alert', url: n.alert.url },
      { type: 'Action.OpenUrl', title: 'Open Query', url: n.query.url },
    ],
  })
}

/**
 * The destination's own message template: JSON text with Mustache variables (and the established tool's `{alert_name}`,
 * `{alert_url}`, `{query_url}`, `{query_text}`), every value escaped for the inside of a JSON string, so a name with
 * quotes or new lines cannot break it. It must give a workflow message or an Adaptive Card (wrapped into one).
 */
async function fromTemplate(template: string, n: AlertNotification, render: SendInput['render']): Promise<Record<string, unknown>> {
  const escape = (s: string) => JSON.stringify(s).slice(1, -1)
  const text = formatLegacy(await render(template, 'json'), {
    alert_name: escape(n.alert.name), alert_url: escape(n.alert.url), query_url: escape(n.query.url), query_text: escape(n.query.name),
  })
  let parsed: unknown
  try {
    parsed = JSON.parse(text)
  } catch (error) {
    throw new Error(`Message Template: not valid JSON (${(error as Error).message}).`)
  }
  const object = parsed as Record<string, unknown> | null
  if (object && typeof object === 'object' && object.type === 'message' && Array.isArray(object.attachments)) return object
  if (object && typeof object === 'object' && object.type === 'AdaptiveCard') return message(object)
  throw new Error('Message Template: Teams workflows take an Adaptive Card (or a message carrying one); the default card was sent.')
}

/**
 * Microsoft Teams through a Workflows ("Post to a channel when a webhook request is received") webhook: an Adaptive
 * Card message, always valid JSON, honouring the alert's custom subject and body. The established tool's MessageCard
 * (Office 365 connectors) is retired; its URL is also kept secret here, since a workflow URL carries its signature.
 */
export const teams: DestinationKind = {
  type: 'microsoft_teams_webhook',
  name: 'Microsoft Teams Webhook',
  icon: 'fa-bolt',
  escaping: 'text',
  configurationSchema: {
    type: 'object',
    properties: {
      url: { type: 'string', title: 'Microsoft Teams Webhook URL' },
      message_template: { type: 'string', title: 'Message Template' },
    },
    required: ['url'],
    secret: ['url'],
    extra_options: ['message_template'],
  },
  async send({ options, n, texts, render }) {
    const url = destinationUrl(options.url, 'Microsoft Teams Webhook URL')
    const template = optionText(options, 'message_template')
    let body: Record<string, unknown> = defaultCard(n, texts)
    let templateError: string | undefined
    if (template) {
      try {
        body = await fromTemplate(template, n, render)
      } catch (error) {
        templateError = error instanceof TemplateError ? `Message Template: ${error.message}` : (error as Error).message
      }
    }
    const answer = await send({ url: url.href, body }, url)
    return templateError ? { ...answer, templateError } : answer
  },
}
