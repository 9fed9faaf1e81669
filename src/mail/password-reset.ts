import { escapeHtml, htmlLink, mailHtml, type MailMessage } from './message.ts'

/** The password-reset mail (reference §1.3: subject "Reset your password"); the link is a day's. */
export function passwordResetMail(o: { to: string; name: string; link: string }): MailMessage {
  const text = [
    `Hi ${o.name},`,
    'To choose a new password for Sightline, open this link:',
    o.link,
    'The link works once, for a day. If you did not ask for a new password, you can ignore this mail: your password stays as it is.',
  ].join('\n\n') + '\n'
  const html = mailHtml([
    `Hi ${escapeHtml(o.name)},`,
    htmlLink('Choose a new password for Sightline', o.link),
    'The link works once, for a day. If you did not ask for a new password, you can ignore this mail: your password stays as it is.',
  ])
  return { to: o.to, subject: 'Reset your password', text, html }
}
