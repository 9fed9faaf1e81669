import crypto from 'node:crypto'

const ALPHANUMERIC = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789'

/** A 40-character alphanumeric key, the API key format of the established tool. */
export function generateApiKey(length = 40): string {
  let key = ''
  while (key.length < length) {
    for (const byte of crypto.randomBytes(length * 2)) {
      // reject the top of the byte range so every character is equally likely
      if (byte < 248 && key.length < length) key += ALPHANUMERIC[byte % 62]
    }
  }
  return key
}

export function randomToken(bytes = 32): string {
  return crypto.randomBytes(bytes).toString('base64url')
}

const oneShotHash = (crypto as { hash?: (algorithm: string, data: string, encoding: 'buffer') => Buffer }).hash

export function sha256(value: string): Buffer {
  // the one-shot form (where the runtime has it) skips a Hash object per call: this runs on every request
  return oneShotHash ? oneShotHash('sha256', value, 'buffer') : crypto.createHash('sha256').update(value).digest()
}

export function hmac(secret: string, value: string | Buffer): string {
  return crypto.createHmac('sha256', secret).update(value).digest('base64url')
}

export function safeEqual(a: string, b: string): boolean {
  const x = Buffer.from(a)
  const y = Buffer.from(b)
  return x.length === y.length && crypto.timingSafeEqual(x, y)
}
