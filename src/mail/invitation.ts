import { escapeHtml, htmlLink, mailHtml, type MailMessage } from './message.ts'

/** The invitation an admin sends a new user (reference §1.3: "{inviter} invited you to join ..."); the link is a week's. */
export function invitationMail(o: { to: string; name: string; inviterName: string; link: string }): MailMessage {
  const subject = `${o.inviterName} invited you to join Sightline`
  const text = [
    `Hi ${o.name},`,
    `${o.inviterName} invited you to join Sightline. To accept the invitation and choose your password, open this link:`,
    o.link,
    'The link works once, for a week. If you did not expect this invitation, you can ignore this mail.',
  ].join('\n\n') + '\n'
  const html = mailHtml([
    `Hi ${escapeHtml(o.name)},`,
    `${escapeHtml(o.inviterName)} invited you to join Sightline.`,
    htmlLink('Accept the invitation and choose your password', o.link),
    'The link works once, for a week. If you did not expect this invitation, you can ignore this mail.',
  ])
  return { to: o.to, subject, text, html }
}
