import { DeliveryFailed } from '../delivery-failed.ts'
import { destinationTexts } from '../../shared/destination-texts.ts'
import type { DestinationKind } from './kind.ts'

/**
 * HipChat: listed, as spec 3 asks, but deprecated: Atlassian shut the service down in 2019, so there is nothing to send
 * to. Sending fails at once (not retried) with a message that says so.
 */
export const hipchat: DestinationKind = {
  type: 'hipchat',
  name: 'HipChat',
  icon: 'fa-comment-o',
  escaping: 'text',
  deprecated: true,
  configurationSchema: {
    type: 'object',
    properties: { url: { type: 'string', title: 'HipChat Notification URL (get it from the Integrations page)' } },
    required: ['url'],
    secret: ['url'],
  },
  send() {
    return Promise.reject(new DeliveryFailed(destinationTexts.hipchatGone, null, false))
  },
}
