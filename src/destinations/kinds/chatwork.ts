import { destinationUrl, send } from '../http.ts'
import { formatLegacy } from '../template.ts'
import { optionText, type DestinationKind } from './kind.ts'

const API = 'https://api.chatwork.com/v2/rooms'
const DEFAULT_MESSAGE = '{alert_name} changed state to {new_state}.\\n{alert_url}\\n{query_url}'

/**
 * ChatWork (reference §6.5): a form POST of `body` to the room, the token in `X-ChatWorkToken`. The message is the
 * custom subject line and custom body, or the destination's message template (`{alert_name}`, `{new_state}`,
 * `{alert_url}`, `{query_url}`, `\n` for a new line).
 */
export const chatwork: DestinationKind = {
  type: 'chatwork',
  name: 'ChatWork',
  icon: 'fa-comment',
  escaping: 'text',
  configurationSchema: {
    type: 'object',
    properties: {
      api_token: { type: 'string', title: 'API Token' },
      room_id: { type: 'string', title: 'Room ID' },
      message_template: { type: 'string', default: DEFAULT_MESSAGE, title: 'Message Template' },
    },
    secret: ['api_token'],
    required: ['message_template', 'api_token', 'room_id'],
  },
  send({ options, n, texts }) {
    const room = optionText(options, 'room_id') ?? ''
    const url = destinationUrl(`${API}/${encodeURIComponent(room)}/messages`, 'Room ID')
    let message = texts.subject !== null ? `${texts.subject}\n` : ''
    if (texts.body !== null) message += texts.body
    else {
      const template = optionText(options, 'message_template') ?? DEFAULT_MESSAGE
      message += formatLegacy(template.replace(/\\n/g, '\n'), {
        alert_name: n.alert.name, new_state: n.alert.state.toUpperCase(), alert_url: n.alert.url, query_url: n.query.url,
      })
    }
    const token = optionText(options, 'api_token') ?? ''
    return send({ url: url.href, headers: { 'X-ChatWorkToken': token }, body: new URLSearchParams({ body: message }) }, url)
  },
}
