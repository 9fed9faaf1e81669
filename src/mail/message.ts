import type { Db } from '../db/index.ts'
import { enqueue } from '../jobs/index.ts'
import type { TaskPayloads } from '../jobs/index.ts'

/** One mail as Sightline sends it: always plain text and HTML, the same words in both. */
export type MailMessage = TaskPayloads['send_mail']

/**
 * How often a mail is tried before it is given up: graphile-worker waits exp(attempt) seconds between tries, so ten
 * tries span about six hours, long enough to ride out a mail server's restart or a short outage.
 */
export const MAIL_ATTEMPTS = 10

/**
 * Queue a mail for the worker. Called inside the transaction that made the link it carries, so a mail goes out only
 * for a link that exists, and a slow or failing mail server never holds the request that asked for it.
 */
export async function queueMail(db: Db, message: MailMessage) {
  await enqueue(db, 'send_mail', message, { maxAttempts: MAIL_ATTEMPTS })
}

const HTML_ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' }

/** Text placed in a mail's HTML (names are whatever people typed). */
export const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => HTML_ESCAPES[c])

/** The HTML frame every Sightline mail shares: plain, readable without images or styles. */
export function mailHtml(paragraphs: string[]): string {
  return `<!doctype html>\n<html><body style="font-family: sans-serif; line-height: 1.5">\n${paragraphs.map((p) => `<p>${p}</p>`).join('\n')}\n</body></html>\n`
}

/** A link in HTML, its address shown too for mail readers that drop links. */
export const htmlLink = (label: string, href: string) =>
  `<a href="${escapeHtml(href)}">${escapeHtml(label)}</a><br>\n<small>${escapeHtml(href)}</small>`
