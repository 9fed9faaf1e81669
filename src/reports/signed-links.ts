import { hmac, safeEqual } from '../credentials/index.ts'

/**
 * The two signed addresses of reports, checked without a session and without a row of their own: the HMAC under the
 * installation's secret key is the proof. An unsubscribe token names one report and one recipient (a user, or a
 * destination); an image token names one stored picture and when its link ends (7 days).
 */

export type UnsubscribeRecipient = { kind: 'user'; id: number } | { kind: 'destination'; id: number }

const sign = (secretKey: string, purpose: string, payload: string) => hmac(secretKey, `${purpose}:${payload}`)

export function unsubscribeToken(secretKey: string, subscriptionId: number, r: UnsubscribeRecipient): string {
  const payload = `${subscriptionId}.${r.kind === 'user' ? 'u' : 'd'}${r.id}`
  return `${payload}.${sign(secretKey, 'report-unsubscribe', payload)}`
}

/** The report and recipient a token names, or undefined when it is not one we signed. */
export function readUnsubscribeToken(secretKey: string, token: string): { subscriptionId: number; recipient: UnsubscribeRecipient } | undefined {
  const match = /^(\d{1,15})\.([ud])(\d{1,15})\.([A-Za-z0-9_-]{43})$/.exec(token)
  if (!match) return undefined
  const payload = `${match[1]}.${match[2]}${match[3]}`
  if (!safeEqual(match[4], sign(secretKey, 'report-unsubscribe', payload))) return undefined
  return { subscriptionId: Number(match[1]), recipient: { kind: match[2] === 'u' ? 'user' : 'destination', id: Number(match[3]) } }
}

export function imageToken(secretKey: string, imageId: number, expiresAt: Date): string {
  const payload = `${imageId}.${Math.floor(expiresAt.getTime() / 1000)}`
  return `${payload}.${sign(secretKey, 'report-image', payload)}`
}

/** The picture a token names while its link lasts, or undefined (forged, or past its time). */
export function readImageToken(secretKey: string, token: string, now = Date.now()): number | undefined {
  const match = /^(\d{1,15})\.(\d{1,12})\.([A-Za-z0-9_-]{43})$/.exec(token)
  if (!match) return undefined
  if (!safeEqual(match[3], sign(secretKey, 'report-image', `${match[1]}.${match[2]}`))) return undefined
  if (Number(match[2]) * 1000 <= now) return undefined
  return Number(match[1])
}
