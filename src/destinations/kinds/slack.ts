import { destinationUrl, send } from '../http.ts'
import { stateLine, triggered, type DestinationKind } from './kind.ts'

/**
 * Slack incoming webhook (reference §6.5): one attachment, red when triggered, green otherwise, with links to the query
 * and the alert and the custom body as Description. Values in custom templates are escaped as Slack asks (&, <, >).
 */
export const slack: DestinationKind = {
  type: 'slack',
  name: 'Slack',
  icon: 'fa-slack',
  escaping: 'slack',
  configurationSchema: {
    type: 'object',
    properties: { url: { type: 'string', title: 'Slack Webhook URL' } },
    // the established tool leaves `url` optional, which only makes a destination that cannot send
    required: ['url'],
    secret: ['url'],
  },
  send({ options, n, texts }) {
    const url = destinationUrl(options.url, 'Slack Webhook URL')
    const fields: Record<string, string>[] = [
      { title: 'Query', type: 'mrkdwn', value: n.query.url },
      { title: 'Alert', type: 'mrkdwn', value: n.alert.url },
    ]
    if (texts.body !== null) fields.push({ title: 'Description', value: texts.body })
    const text = triggered(n) ? (texts.subject ?? stateLine(n)) : stateLine(n)
    const color = triggered(n) ? '#c0392b' : '#27ae60'
    return send({ url: url.href, body: { attachments: [{ text, color, fields }] } }, url)
  },
}
