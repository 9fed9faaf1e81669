import { SMTPServer } from 'smtp-server'
import type { MailSettings } from '../../src/config.ts'

/** A mail as it arrived at the test SMTP server, decoded as a mail client would show it. */
export interface ArrivedMail {
  to: string[]
  subject: string
  from: string
  text: string
  html: string
  raw: string
}

/** A real SMTP server in-process on a free port, keeping what arrives, and the mail settings that reach it. */
export async function startSmtp(): Promise<{ received: ArrivedMail[]; mail: MailSettings; close(): Promise<void> }> {
  const received: ArrivedMail[] = []
  const smtp = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = []
      stream.on('data', (c: Buffer) => chunks.push(c))
      stream.on('end', () => {
        received.push({ to: session.envelope.rcptTo.map((r) => r.address), ...parseMail(Buffer.concat(chunks).toString('utf8')) })
        callback()
      })
    },
  })
  await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', resolve))
  const { port } = smtp.server.address() as { port: number }
  const mail: MailSettings = {
    server: '127.0.0.1', port, useTls: false, useSsl: false, username: undefined, password: undefined,
    defaultSender: 'Sightline <sightline@example.com>',
  }
  return { received, mail, close: () => new Promise<void>((resolve) => smtp.close(() => resolve())) }
}

/** Headers of one MIME entity, unfolded, by lower-case name. */
function headersOf(head: string): Map<string, string> {
  const map = new Map<string, string>()
  for (const line of head.replace(/\r?\n[ \t]+/g, ' ').split(/\r?\n/)) {
    const at = line.indexOf(':')
    if (at > 0) map.set(line.slice(0, at).trim().toLowerCase(), line.slice(at + 1).trim())
  }
  return map
}

const splitEntity = (entity: string) => {
  const at = entity.search(/\r?\n\r?\n/)
  return { head: entity.slice(0, at), body: entity.slice(at).replace(/^\r?\n\r?\n/, '') }
}

function decodeBody(body: string, encoding: string | undefined): string {
  if (encoding === 'base64') return Buffer.from(body.replace(/\s+/g, ''), 'base64').toString('utf8')
  if (encoding === 'quoted-printable') return quotedPrintable(body.replace(/=\r?\n/g, ''))
  return body
}

/** `=XX` escapes to their bytes, read as UTF-8 (what `Q` encoded words and quoted-printable bodies share). */
function quotedPrintable(text: string): string {
  const bytes: number[] = []
  for (let i = 0; i < text.length; i++) {
    const hex = text[i] === '=' ? /^[0-9A-F]{2}/i.exec(text.slice(i + 1, i + 3))?.[0] : undefined
    if (hex) {
      bytes.push(parseInt(hex, 16))
      i += 2
    } else bytes.push(...Buffer.from(text[i], 'utf8'))
  }
  return Buffer.from(bytes).toString('utf8')
}

/** RFC 2047 encoded words (`=?UTF-8?Q?…?=`, `=?UTF-8?B?…?=`), as mail clients show them. */
const decodeWords = (value: string) => value.replace(/=\?utf-8\?([qb])\?([^?]*)\?=\s*/gi, (_, kind: string, text: string) =>
  kind.toLowerCase() === 'b'
    ? Buffer.from(text, 'base64').toString('utf8')
    : quotedPrintable(text.replace(/_/g, ' ')))

/** A mail's subject, sender and its plain text and HTML parts (nodemailer's multipart/alternative). */
function parseMail(raw: string): Omit<ArrivedMail, 'to'> {
  const { head, body } = splitEntity(raw)
  const headers = headersOf(head)
  const parts: { type: string; content: string }[] = []
  const boundary = /boundary="?([^";]+)"?/i.exec(headers.get('content-type') ?? '')?.[1]
  const entities = boundary ? body.split(`--${boundary}`).slice(1, -1) : [raw]
  for (const entity of entities) {
    const part = splitEntity(entity.replace(/^\r?\n/, ''))
    const h = headersOf(part.head)
    parts.push({ type: (h.get('content-type') ?? '').split(';')[0], content: decodeBody(part.body, h.get('content-transfer-encoding')) })
  }
  return {
    subject: decodeWords(headers.get('subject') ?? ''),
    from: decodeWords(headers.get('from') ?? ''),
    text: parts.find((p) => p.type === 'text/plain')?.content ?? '',
    html: parts.find((p) => p.type === 'text/html')?.content ?? '',
    raw,
  }
}
