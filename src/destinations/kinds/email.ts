import { sendMail } from '../../mail/index.ts'
import { destinationTexts } from '../../shared/destination-texts.ts'
import { DeliveryFailed } from '../delivery-failed.ts'
import { defaultSubject, DEFAULT_MAIL_BODY, DEFAULT_MAIL_TEXT, DEFAULT_SUBJECT_TEMPLATE, renderTemplate } from '../template.ts'
import { type DestinationKind } from './kind.ts'

const ADDRESS = /^[^\s@,<>]+@[^\s@,<>]+$/

/** Whether one address looks like an e-mail address (the mail server has the last word). */
export const isAddress = (address: string) => ADDRESS.test(address)

/** The addresses of the `addresses` option: comma-separated, blanks dropped. */
export const addressesOf = (raw: unknown) => (typeof raw === 'string' ? raw.split(',').map((a) => a.trim()).filter(Boolean) : [])

/**
 * E-mail (reference §6.5): the custom subject or the destination's subject template (`{alert_name}`, `{state}`), and
 * the custom body or the default body, HTML-escaped; the default body needs no selector (the established tool
 * dropped these mails silently). Sent straight to the SMTP server: the delivery job is the retry.
 */
export const email: DestinationKind = {
  type: 'email',
  name: 'Email',
  icon: 'fa-envelope',
  escaping: 'html',
  configurationSchema: {
    type: 'object',
    properties: {
      addresses: { type: 'string' },
      subject_template: { type: 'string', default: DEFAULT_SUBJECT_TEMPLATE, title: 'Subject Template' },
    },
    required: ['addresses'],
    extra_options: ['subject_template'],
  },
  async send({ options, n, texts, mail }) {
    if (!mail) throw new DeliveryFailed(destinationTexts.mailNotConfigured, null, false)
    const to = addressesOf(options.addresses)
    if (to.length === 0) throw new DeliveryFailed(destinationTexts.noAddresses, null, false)
    const wrong = to.find((a) => !isAddress(a))
    if (wrong) throw new DeliveryFailed(destinationTexts.badAddress(wrong), null, false)
    const subject = texts.subject ?? defaultSubject(n, options.subject_template)
    const html = texts.body ?? renderTemplate(DEFAULT_MAIL_BODY, n, 'html')
    // the plain part: the custom body as written (rendered without escaping), or the default text
    const text = texts.body !== null ? textOf(html) : renderTemplate(DEFAULT_MAIL_TEXT, n, 'text')
    try {
      await sendMail(mail, { to: to.join(', '), subject, html, text })
    } catch (error) {
      const e = error as Error & { responseCode?: number }
      // 5xx from the mail server is a refusal (a bad address); anything else may pass on a later try
      const refused = typeof e.responseCode === 'number' && e.responseCode >= 500
      throw new DeliveryFailed(`The mail server did not take the mail: ${e.message}`, null, !refused, 'The mail server did not take the mail.')
    }
    return { status: null, detail: `Sent to ${to.join(', ')}.` }
  },
}

/** A plain-text rendering of a custom HTML body: tags dropped, the common entities read back. */
function textOf(html: string): string {
  return html.replace(/<br\s*\/?>/gi, '\n').replace(/<\/(p|div|tr|h\d|li)>/gi, '\n').replace(/<[^>]*>/g, '')
    .replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&quot;/g, '"').replace(/&#39;/g, "'").replace(/&amp;/g, '&')
    .replace(/\n{3,}/g, '\n\n').trim()
}
