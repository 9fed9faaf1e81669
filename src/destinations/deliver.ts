import type { CoreDeps } from '../deps.ts'
import { destinationTexts } from '../shared/destination-texts.ts'
import { localOrigin } from '../settings/index.ts'
import { DeliveryFailed } from './delivery-failed.ts'
import { email } from './kinds/email.ts'
import type { DestinationKind } from './kinds/kind.ts'
import type { AlertNotification, DeliveryAnswer, DeliveryTarget } from './notification.ts'
import { findById } from './store.ts'
import { customTextsOffThread, renderOneOffThread } from './template-pool.ts'
import { destinationTypes } from './types.ts'

export { DeliveryFailed } from './delivery-failed.ts'

/**
 * Send one notification to one target, once: no retry here (the alerts' delivery job retries and records each
 * attempt). Throws DeliveryFailed when the service refuses or cannot be reached; a destination that no longer exists
 * (or belongs to another organization) is a failure not worth retrying. The address sent to comes only from the
 * destination's stored options (or the subscriber's own e-mail), never from the notification.
 *
 * `deps` needs only the database, the config and the secret key, so both the web process and the worker can call it.
 */
export async function deliver(deps: Pick<CoreDeps, 'sql' | 'secretKey' | 'config'>, orgId: number, target: DeliveryTarget, n: AlertNotification): Promise<DeliveryAnswer> {
  let kind: DestinationKind
  let options: Record<string, unknown>
  if (target.kind === 'user_email') {
    kind = email
    options = { addresses: target.email }
  } else {
    const row = await findById(deps.sql, orgId, target.destinationId)
    if (!row) throw new DeliveryFailed(destinationTexts.notFound, null, false)
    const found = destinationTypes.get(row.type)
    if (!found) throw new DeliveryFailed(destinationTexts.unknownType(row.type), null, false)
    kind = found
    try {
      options = destinationTypes.opened(deps.secretKey, row)
    } catch {
      // sealed under another SIGHTLINE_SECRET_KEY: an admin must enter the secrets again
      throw new DeliveryFailed('The destination\'s secrets cannot be opened with this installation\'s key; save them again.', null, false)
    }
  }
  return sendWith(kind, options, n, deps.config)
}

/**
 * Send through one kind with given options (deliver's second half; Send Test uses it too). The alert's templates
 * render in a template thread, within the template budget; one that fails sends the kind's default text, and the
 * answer says why (the delivery keeps it as its template error).
 */
export async function sendWith(
  kind: DestinationKind, options: Record<string, unknown>, n: AlertNotification, config: CoreDeps['config'],
): Promise<DeliveryAnswer> {
  const texts = await customTextsOffThread(n, kind.escaping)
  const answer = await kind.send({ options, n, texts, urlBase: urlBase(config, n), mail: config.mail, render: (template, escaping) => renderOneOffThread(template, n, escaping) })
  const templateError = [texts.error, answer.templateError].filter(Boolean).join(' ')
  return templateError ? { ...answer, templateError } : answer
}

/**
 * The installation's address (webhooks' `url_base`): the part of the alert's address before `/alerts/`, which was
 * built on the public origin when the notification was made (src/settings/public-origin.ts).
 */
function urlBase(config: CoreDeps['config'], n: AlertNotification): string {
  const at = n.alert.url.lastIndexOf('/alerts/')
  return at > 0 ? n.alert.url.slice(0, at) : config.baseUrl ?? localOrigin(config)
}
