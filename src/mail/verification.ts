import { escapeHtml, htmlLink, mailHtml, type MailMessage } from './message.ts'

/** The email-verification mail (reference §1.3: subject "{name}, please verify your email address"); the link is a week's. */
export function verificationMail(o: { to: string; name: string; link: string }): MailMessage {
  const text = [
    `Hi ${o.name},`,
    'To verify the email address of your Sightline account, open this link:',
    o.link,
    'The link works once, for a week. If you did not ask for this, you can ignore this mail.',
  ].join('\n\n') + '\n'
  const html = mailHtml([
    `Hi ${escapeHtml(o.name)},`,
    htmlLink('Verify the email address of your Sightline account', o.link),
    'The link works once, for a week. If you did not ask for this, you can ignore this mail.',
  ])
  return { to: o.to, subject: `${o.name}, please verify your email address`, text, html }
}
