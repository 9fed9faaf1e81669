import crypto from 'node:crypto'

const VERSION = 'v1'

/** Seals and opens JSON objects with AES-256-GCM under a key derived from SIGHTLINE_SECRET_KEY and a purpose. */
export interface SecretBox {
  seal(secretKey: string, value: Record<string, unknown>): string
  /** Nothing sealed opens as an empty object; a wrong key or a changed text throws. */
  open(secretKey: string, sealed: string | null): Record<string, unknown>
}

/**
 * A box for one kind of secret. Each purpose derives its own key, so what is sealed for one (data-source secrets)
 * cannot be opened as another (destination secrets). The purpose is part of every stored text's key: never rename it.
 */
export function secretBox(purpose: string): SecretBox {
  const keyFrom = (secretKey: string) => crypto.createHash('sha256').update(`sightline:${purpose}:${secretKey}`).digest()
  return {
    seal(secretKey, value) {
      const iv = crypto.randomBytes(12)
      const cipher = crypto.createCipheriv('aes-256-gcm', keyFrom(secretKey), iv)
      const body = Buffer.concat([cipher.update(JSON.stringify(value), 'utf8'), cipher.final()])
      return [VERSION, iv.toString('base64'), cipher.getAuthTag().toString('base64'), body.toString('base64')].join(':')
    },
    open(secretKey, sealed) {
      if (!sealed) return {}
      const [version, iv, tag, body] = sealed.split(':')
      if (version !== VERSION) throw new Error('Unknown secret format.')
      const decipher = crypto.createDecipheriv('aes-256-gcm', keyFrom(secretKey), Buffer.from(iv, 'base64'))
      decipher.setAuthTag(Buffer.from(tag, 'base64'))
      const text = Buffer.concat([decipher.update(Buffer.from(body, 'base64')), decipher.final()]).toString('utf8')
      return JSON.parse(text)
    },
  }
}
