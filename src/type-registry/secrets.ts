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
  // a process has one secret key: derived once, with a number its opened texts are remembered under (not the key
  // itself, which has no business in a map's keys)
  const keys = new Map<string, { key: Buffer; id: number }>()
  const keyFrom = (secretKey: string) => {
    let derived = keys.get(secretKey)
    if (!derived) {
      const key = crypto.createHash('sha256').update(`sightline:${purpose}:${secretKey}`).digest()
      derived = { key, id: keys.size }
      keys.set(secretKey, derived)
    }
    return derived
  }
  /**
   * Texts already opened, by the key that opened them and the sealed text: every run of a query opened its source's
   * secrets again (a key derivation and a decipher, a few percent of a busy worker's CPU). A sealed text is unique to
   * one sealing (its IV is random), so an edited secret is a new entry, and an entry answers only for its key.
   */
  const openedTexts = new Map<string, string>()
  return {
    seal(secretKey, value) {
      const iv = crypto.randomBytes(12)
      const cipher = crypto.createCipheriv('aes-256-gcm', keyFrom(secretKey).key, iv)
      const body = Buffer.concat([cipher.update(JSON.stringify(value), 'utf8'), cipher.final()])
      return [VERSION, iv.toString('base64'), cipher.getAuthTag().toString('base64'), body.toString('base64')].join(':')
    },
    open(secretKey, sealed) {
      if (!sealed) return {}
      const { key, id } = keyFrom(secretKey)
      const entry = `${id} ${sealed}`
      let text = openedTexts.get(entry)
      if (text === undefined) {
        const [version, iv, tag, body] = sealed.split(':')
        if (version !== VERSION) throw new Error('Unknown secret format.')
        const decipher = crypto.createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64'))
        decipher.setAuthTag(Buffer.from(tag, 'base64'))
        text = Buffer.concat([decipher.update(Buffer.from(body, 'base64')), decipher.final()]).toString('utf8')
        remember(openedTexts, entry, text)
      }
      // parsed anew each time: callers get an object of their own to change
      return JSON.parse(text)
    },
  }
}

/** How many opened texts a box remembers; the oldest goes first. */
const OPENED_TEXTS = 256

function remember(texts: Map<string, string>, entry: string, text: string) {
  if (texts.size >= OPENED_TEXTS) texts.delete(texts.keys().next().value!)
  texts.set(entry, text)
}
