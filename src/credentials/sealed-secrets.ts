import crypto from 'node:crypto'

/**
 * Secrets kept in the organization settings (an identity provider's client secret), sealed with AES-256-GCM under a
 * key derived from SIGHTLINE_SECRET_KEY: a database dump or backup alone does not give them away.
 */
const PREFIX = 's1:'

const keyOf = (secretKey: string) => crypto.createHash('sha256').update(`sightline:settings-secrets:${secretKey}`).digest()

export function sealSecret(secretKey: string, plain: string): string {
  if (!plain) return ''
  const iv = crypto.randomBytes(12)
  const cipher = crypto.createCipheriv('aes-256-gcm', keyOf(secretKey), iv)
  const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()])
  return PREFIX + [iv, cipher.getAuthTag(), body].map((b) => b.toString('base64')).join(':')
}

/** The secret in the clear; '' when none is stored or it cannot be opened (SIGHTLINE_SECRET_KEY changed: enter it again). */
export function openSecret(secretKey: string, sealed: string): string {
  if (!sealed.startsWith(PREFIX)) return sealed // saved before sealing, or typed straight into the database
  const [iv, tag, body] = sealed.slice(PREFIX.length).split(':').map((p) => Buffer.from(p, 'base64'))
  try {
    const decipher = crypto.createDecipheriv('aes-256-gcm', keyOf(secretKey), iv)
    decipher.setAuthTag(tag)
    return Buffer.concat([decipher.update(body), decipher.final()]).toString('utf8')
  } catch {
    return ''
  }
}
