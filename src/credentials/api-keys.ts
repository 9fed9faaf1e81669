import crypto from 'node:crypto'
import { sha256 } from './tokens.ts'

/**
 * API keys at rest (users' keys and queries' keys alike). A key is found by its sha-256, as session tokens are: a
 * key is 40 random characters, so a fast hash cannot be reversed, and a leaked table cannot be replayed as keys.
 * The established tool shows a user their own key (and a query's key to those who see the query), so a copy is kept
 * too, sealed with AES-256-GCM under a key derived from SIGHTLINE_SECRET_KEY: the database alone does not give
 * the keys away.
 */
export interface StoredApiKey {
  hash: Buffer
  sealed: string
}

const VERSION = 'k1'

function sealingKey(secretKey: string): Buffer {
  // its own derivation, so these copies and data-source secrets never share a key
  return crypto.createHash('sha256').update(`sightline:api-keys:${secretKey}`).digest()
}

export const apiKeyHash = (apiKey: string): Buffer => sha256(apiKey)

export function sealApiKey(secretKey: string, apiKey: string): string {
  const iv = crypto.randomBytes(12)
  const cipher = crypto.createCipheriv('aes-256-gcm', sealingKey(secretKey), iv)
  const body = Buffer.concat([cipher.update(apiKey, 'utf8'), cipher.final()])
  return [VERSION, iv.toString('base64'), cipher.getAuthTag().toString('base64'), body.toString('base64')].join(':')
}

/**
 * The key in the clear, for display; null when there is no copy or it cannot be opened (SIGHTLINE_SECRET_KEY was
 * changed): the key still works, and regenerating it gives one that can be shown again.
 */
export function revealApiKey(secretKey: string, sealed: string | null): string | null {
  if (!sealed) return null
  const [version, iv, tag, body] = sealed.split(':')
  if (version !== VERSION || !iv || !tag || !body) return null
  try {
    const decipher = crypto.createDecipheriv('aes-256-gcm', sealingKey(secretKey), Buffer.from(iv, 'base64'))
    decipher.setAuthTag(Buffer.from(tag, 'base64'))
    return Buffer.concat([decipher.update(Buffer.from(body, 'base64')), decipher.final()]).toString('utf8')
  } catch {
    return null
  }
}

export function storedApiKey(secretKey: string, apiKey: string): StoredApiKey {
  return { hash: apiKeyHash(apiKey), sealed: sealApiKey(secretKey, apiKey) }
}
