import { destinationUrl, send } from '../http.ts'
import { stateLine, type DestinationKind } from './kind.ts'

// Discord's embed colours, as numbers (its API's type; the established tool sent them as strings)
const COLORS = { triggered: 12597547, ok: 2600544, unknown: 16776960 } as const

/**
 * Discord webhook (reference §6.5): the line as `content`, an embed with the query and alert links and the custom
 * body. The custom subject is rendered (the established tool sent it raw, braces and all). Discord answers 204.
 */
export const discord: DestinationKind = {
  type: 'discord',
  name: 'Discord',
  icon: 'fa-discord',
  escaping: 'text',
  configurationSchema: {
    type: 'object',
    properties: { url: { type: 'string', title: 'Discord Webhook URL' } },
    required: ['url'],
    secret: ['url'],
  },
  send({ options, n, texts }) {
    const url = destinationUrl(options.url, 'Discord Webhook URL')
    const fields: Record<string, unknown>[] = [
      { name: 'Query', value: n.query.url, inline: true },
      { name: 'Alert', value: n.alert.url, inline: true },
    ]
    if (texts.body !== null) fields.push({ name: 'Description', value: texts.body })
    const state = n.alert.state
    const content = state === 'triggered'
      ? (texts.subject ?? stateLine(n))
      : state === 'ok' ? stateLine(n) : `${n.alert.name} is in an unknown state`
    return send({ url: url.href, body: { content, embeds: [{ color: COLORS[state], fields }] } }, url)
  },
}
