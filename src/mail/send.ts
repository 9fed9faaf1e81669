import { createTransport } from 'nodemailer'
import type { MailSettings } from '../config.ts'
import type { MailMessage } from './message.ts'

/** How long a mail server gets to answer each step (30 s); a hung server fails the try, and the job is tried again later. */
const SMTP_TIMEOUT_MS = 30_000

/** A mail with files (inline pictures by `cid`, attachments) and extra headers (reports' List-Unsubscribe). */
export interface RichMailMessage extends MailMessage {
  attachments?: { filename: string; content: Buffer; contentType: string; cid?: string }[]
  headers?: Record<string, string>
}

/** Send one mail through the configured SMTP server (the worker's send_mail task); throws when the server refuses it. */
export async function sendMail(settings: MailSettings, message: RichMailMessage): Promise<void> {
  const transport = createTransport({
    host: settings.server,
    port: settings.port,
    secure: settings.useSsl,
    requireTLS: settings.useTls,
    auth: settings.username ? { user: settings.username, pass: settings.password ?? '' } : undefined,
    connectionTimeout: SMTP_TIMEOUT_MS,
    greetingTimeout: SMTP_TIMEOUT_MS,
    socketTimeout: SMTP_TIMEOUT_MS,
  })
  try {
    await transport.sendMail({ from: settings.defaultSender, ...message })
  } finally {
    transport.close()
  }
}
