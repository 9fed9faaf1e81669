import type { MailSettings } from '../../config.ts'
import type { ConfiguredType } from '../../type-registry/index.ts'
import type { AlertNotification, DeliveryAnswer } from '../notification.ts'
import type { CustomTexts, Escaping } from '../template.ts'

/** What a kind gets to send one notification. */
export interface SendInput {
  /** The destination's options with its secrets opened (only ever what an admin saved). */
  options: Record<string, unknown>
  n: AlertNotification
  /** The alert's custom subject and body, rendered with the kind's `escaping` (null where none, or failed). */
  texts: CustomTexts
  /** The installation's address, without a trailing slash (the webhook's `url_base`, links back). */
  urlBase: string
  /** The SMTP server, for the e-mail kind; undefined when mail is not configured. */
  mail: MailSettings | undefined
  /** Renders a template of the destination's own options off the event loop, within the template budget (TemplateError). */
  render(template: string, escaping: Escaping): Promise<string>
}

/** One alert destination type (reference §1.7): its form, its mark, and how it tells its service. */
export interface DestinationKind extends ConfiguredType {
  /** The established tool's icon name (`fa-slack` …): the API lists it; the pages draw their own mark for it. */
  icon: string
  /** How values are escaped in the alert's custom templates for this service. */
  escaping: Escaping
  /** Send one notification; a failure throws DeliveryFailed. */
  send(input: SendInput): Promise<DeliveryAnswer>
}

/** The two texts most chats use: triggered, or back to normal (the established tool reports `unknown` as the latter). */
export const triggered = (n: AlertNotification) => n.alert.state === 'triggered'
export const stateLine = (n: AlertNotification) => (triggered(n) ? `${n.alert.name} just triggered` : `${n.alert.name} went back to normal`)

/** An option as text, or undefined when empty. */
export const optionText = (options: Record<string, unknown>, key: string): string | undefined => {
  const v = options[key]
  return typeof v === 'string' && v.trim() !== '' ? v.trim() : undefined
}
