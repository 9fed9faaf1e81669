import { DeliveryFailed, destinationUrl, send } from '../destinations/index.ts'
import type { DeliveryAnswer } from '../destinations/index.ts'
import type { DrawnDashboard } from '../rendering/index.ts'

/** One widget as a chat line gets it: its title, and the signed address of its picture when it has one. */
export interface ChatWidget {
  title: string
  imageUrl: string | null
  note: string | null
}

export interface ChatReport {
  name: string
  link: string | null
  late: boolean
  widgets: ChatWidget[]
  unsubscribeUrl: string
}

export const chatTexts = {
  title: (r: ChatReport) => `${r.late ? '[Late] ' : ''}Report: ${r.name}`,
  noOrigin: 'Pictures need the public address of Sightline (Settings > General > Base URL).',
}

/** The widgets of the drawing as chat lines, with picture addresses from `imageUrl` (null: no picture). */
export function chatWidgets(d: DrawnDashboard, imageUrl: (widgetId: number) => string | null): ChatWidget[] {
  return d.widgets.map((w) => ({
    title: w.title || (w.kind === 'text' ? 'Text' : `Widget ${w.widgetId}`),
    imageUrl: w.kind === 'chart' ? imageUrl(w.widgetId) : null,
    note: w.kind === 'restricted' || w.kind === 'error' || w.kind === 'empty' ? w.message ?? null : null,
  }))
}

const lines = (r: ChatReport, link: (label: string, url: string) => string) => [
  r.link ? link(chatTexts.title(r), r.link) : chatTexts.title(r),
  ...r.widgets.map((w) => `• ${w.imageUrl ? link(w.title, w.imageUrl) : w.title}${w.note ? ` (${w.note})` : ''}`),
].join('\n')

/**
 * A report to a chat destination: text with links to the live dashboard and to each chart's picture (a signed
 * address on the public origin, valid 7 days). Each service's own link markup; the webhook gets JSON.
 */
export async function sendChatReport(type: string, options: Record<string, unknown>, r: ChatReport): Promise<DeliveryAnswer> {
  const url = destinationUrl(options.url)
  switch (type) {
    case 'slack':
    case 'hangouts_chat':
      return send({ url: url.href, body: { text: lines(r, (label, href) => `<${href}|${label.replace(/[<>|]/g, ' ')}>`) } }, url)
    case 'mattermost': {
      const body: Record<string, unknown> = { text: lines(r, (label, href) => `[${label.replace(/[[\]]/g, ' ')}](${href})`) }
      for (const key of ['username', 'icon_url', 'channel']) if (typeof options[key] === 'string' && options[key]) body[key] = options[key]
      return send({ url: url.href, body }, url)
    }
    case 'microsoft_teams_webhook': {
      const card = {
        type: 'AdaptiveCard', $schema: 'http://adaptivecards.io/schemas/adaptive-card.json', version: '1.4',
        body: [
          { type: 'TextBlock', text: chatTexts.title(r), weight: 'Bolder', size: 'Medium', wrap: true },
          ...r.widgets.map((w) => ({ type: 'TextBlock', wrap: true, text: `${w.imageUrl ? `[${w.title}](${w.imageUrl})` : w.title}${w.note ? ` (${w.note})` : ''}` })),
        ],
        actions: r.link ? [{ type: 'Action.OpenUrl', title: 'Open', url: r.link }] : [],
      }
      return send({ url: url.href, body: { type: 'message', attachments: [{ contentType: 'application/vnd.microsoft.card.adaptive', contentUrl: null, content: card }] } }, url)
    }
    case 'webhook': {
      const headers: Record<string, string> = {}
      if (typeof options.username === 'string' && options.username) {
        headers.Authorization = `Basic ${Buffer.from(`${options.username}:${typeof options.password === 'string' ? options.password : ''}`).toString('base64')}`
      }
      const body = {
        event: 'report', name: r.name, url: r.link, late: r.late, unsubscribe_url: r.unsubscribeUrl,
        widgets: r.widgets.map((w) => ({ title: w.title, image_url: w.imageUrl, note: w.note })),
      }
      return send({ url: url.href, headers, body }, url)
    }
    default:
      throw new DeliveryFailed(`Reports cannot be sent to ${type} destinations.`, null, false)
  }
}
