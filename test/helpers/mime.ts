/** A mail's MIME parts as a mail client reads them: every leaf of every multipart, decoded, with its headers. */
export interface MimePart {
  type: string
  filename: string | null
  cid: string | null
  content: Buffer
  text: string
}

function headersOf(head: string): Map<string, string> {
  const map = new Map<string, string>()
  for (const line of head.replace(/\r?\n[ \t]+/g, ' ').split(/\r?\n/)) {
    const at = line.indexOf(':')
    if (at > 0) map.set(line.slice(0, at).trim().toLowerCase(), line.slice(at + 1).trim())
  }
  return map
}

function split(entity: string): { head: string; body: string } {
  const at = entity.search(/\r?\n\r?\n/)
  return at < 0 ? { head: entity, body: '' } : { head: entity.slice(0, at), body: entity.slice(at).replace(/^\r?\n\r?\n/, '') }
}

function decode(body: string, encoding: string | undefined): Buffer {
  if (encoding === 'base64') return Buffer.from(body.replace(/\s+/g, ''), 'base64')
  if (encoding === 'quoted-printable') {
    const text = body.replace(/=\r?\n/g, '')
    const bytes: number[] = []
    for (let i = 0; i < text.length; i++) {
      const hex = text[i] === '=' ? /^[0-9A-F]{2}/i.exec(text.slice(i + 1, i + 3))?.[0] : undefined
      if (hex) {
        bytes.push(parseInt(hex, 16))
        i += 2
      } else bytes.push(...Buffer.from(text[i], 'utf8'))
    }
    return Buffer.from(bytes)
  }
  return Buffer.from(body, 'utf8')
}

/** The top headers of a raw mail, unfolded, by lower-case name. */
export const mailHeaders = (raw: string) => headersOf(split(raw).head)

/** Every leaf part of a raw mail (nested multiparts walked). */
export function mimeParts(raw: string): MimePart[] {
  const out: MimePart[] = []
  const walk = (entity: string) => {
    const { head, body } = split(entity)
    const h = headersOf(head)
    const type = h.get('content-type') ?? 'text/plain'
    const boundary = /boundary="?([^";]+)"?/i.exec(type)?.[1]
    if (boundary) {
      for (const child of body.split(`--${boundary}`).slice(1, -1)) walk(child.replace(/^\r?\n/, ''))
      return
    }
    const content = decode(body, h.get('content-transfer-encoding')?.toLowerCase())
    const filename = /filename="?([^";]+)"?/i.exec(h.get('content-disposition') ?? type)?.[1] ?? null
    const cid = /<([^>]+)>/.exec(h.get('content-id') ?? '')?.[1] ?? null
    out.push({ type: type.split(';')[0].trim().toLowerCase(), filename, cid, content, text: content.toString('utf8') })
  }
  walk(raw)
  return out
}
