import crypto from 'node:crypto'

/** What the browser gets instead of a stored secret; sending it back on save keeps the stored value. */
export const SECRET_MASK = '--------'

const VERSION = 'v1'

function keyFrom(secretKey: string): Buffer {
  return crypto.createHash('sha256').update(`sightline:data-source-secrets:${secretKey}`).digest()
}

/** Seal a JSON object with AES-256-GCM under a key derived from SIGHTLINE_SECRET_KEY. */
export function seal(secretKey: string, value: Record<string, unknown>): string {
  const iv = crypto.randomBytes(12)
  const cipher = crypto.createCipheriv('aes-256-gcm', keyFrom(secretKey), iv)
  const body = Buffer.concat([cipher.update(JSON.stringify(value), 'utf8'), cipher.final()])
  return [VERSION, iv.toString('base64'), cipher.getAuthTag().toString('base64'), body.toString('base64')].join(':')
}

export function open(secretKey: string, sealed: string | null): Record<string, unknown> {
  if (!sealed) return {}
  const [version, iv, tag, body] = sealed.split(':')
  if (version !== VERSION) throw new Error('Unknown secret format.')
  const decipher = crypto.createDecipheriv('aes-256-gcm', keyFrom(secretKey), Buffer.from(iv, 'base64'))
  decipher.setAuthTag(Buffer.from(tag, 'base64'))
  const text = Buffer.concat([decipher.update(Buffer.from(body, 'base64')), decipher.final()]).toString('utf8')
  return JSON.parse(text)
}
