import { destinationUrl, send } from '../http.ts'
import { optionText, stateLine, type DestinationKind } from './kind.ts'

/**
 * Mattermost incoming webhook (reference §6.5): the custom subject (any state) or a `####` heading line, the custom
 * body as a Description attachment, and the optional username, icon and channel overrides.
 */
export const mattermost: DestinationKind = {
  type: 'mattermost',
  name: 'Mattermost',
  icon: 'fa-bolt',
  escaping: 'text',
  configurationSchema: {
    type: 'object',
    properties: {
      url: { type: 'string', title: 'Mattermost Webhook URL' },
      username: { type: 'string', title: 'Username' },
      icon_url: { type: 'string', title: 'Icon (URL)' },
      channel: { type: 'string', title: 'Channel' },
    },
    // the established tool writes `"secret": "url"` (a string) and no `required`; a list, and the URL required
    required: ['url'],
    secret: ['url'],
  },
  send({ options, n, texts }) {
    const url = destinationUrl(options.url, 'Mattermost Webhook URL')
    const body: Record<string, unknown> = { text: texts.subject ?? `#### ${stateLine(n)}` }
    if (texts.body !== null) body.attachments = [{ fields: [{ title: 'Description', value: texts.body }] }]
    for (const key of ['username', 'icon_url', 'channel']) {
      const value = optionText(options, key)
      if (value) body[key] = value
    }
    return send({ url: url.href, body }, url)
  },
}
