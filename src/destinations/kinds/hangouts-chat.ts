import { destinationUrl, send } from '../http.ts'
import { optionText, type DestinationKind } from './kind.ts'

const STATUS = {
  triggered: '<b><font color="#c0392b">Triggered</font></b>',
  ok: '<font color="#27ae60">Went back to normal</font>',
  unknown: 'Unable to determine status. Check Query and Alert configuration.',
} as const

/**
 * Google Chat (Hangouts Chat) incoming webhook (reference §6.5): a card titled with the custom subject or the alert's
 * name, the status, an OPEN QUERY button and the custom body. Card paragraphs read simple HTML, so values in the
 * custom body are HTML-escaped (the template's own markup stays).
 */
export const hangoutsChat: DestinationKind = {
  type: 'hangouts_chat',
  name: 'Google Hangouts Chat',
  icon: 'fa-bolt',
  escaping: 'html',
  configurationSchema: {
    type: 'object',
    properties: {
      url: { type: 'string', title: 'Webhook URL (get it from the room settings)' },
      icon_url: { type: 'string', title: 'Icon URL (32x32 or multiple, png format)' },
    },
    secret: ['url'],
    required: ['url'],
  },
  send({ options, n, texts }) {
    const url = destinationUrl(options.url, 'Webhook URL')
    const header: Record<string, string> = { title: texts.subject ?? n.alert.name }
    const icon = optionText(options, 'icon_url')
    if (icon) header.imageUrl = icon
    const sections: Record<string, unknown>[] = [{
      widgets: [
        { textParagraph: { text: STATUS[n.alert.state] } },
        { buttons: [{ textButton: { text: 'OPEN QUERY', onClick: { openLink: { url: n.query.url } } } }] },
      ],
    }]
    if (texts.body !== null) sections.push({ widgets: [{ textParagraph: { text: texts.body } }] })
    return send({ url: url.href, headers: { 'Content-Type': 'application/json; charset=UTF-8' }, body: { cards: [{ header, sections }] } }, url)
  },
}
