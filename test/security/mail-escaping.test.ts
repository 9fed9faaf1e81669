import { describe, expect, it } from 'vitest'
import { failureReportMail, invitationMail, passwordResetMail, verificationMail } from '../../src/mail/index.ts'
import type { MailMessage } from '../../src/mail/index.ts'

/**
 * Names and error texts in mails are whatever members typed or a data source said: in the HTML part they must stay
 * text, or a member could put markup (a phishing form, a tracking image, a script for clients that run one) in a
 * mail Sightline sends to an admin or a colleague.
 */
const HOSTILE = [
  '<script>alert(1)</script>',
  '<img src=x onerror="alert(1)">',
  '"><a href="https://evil.example">Click</a>',
  "'><form action=https://evil.example><input name=password></form>",
  '</code></p><iframe src="https://evil.example"></iframe>',
]

/** The markup the mail frame itself writes; anything else in the HTML part came from input and escaped badly. */
const FRAME_TAGS = /^(<!doctype html>|<\/?(html|body|p|a|strong|small|code)>|<br>|<body style="[^"<>]*">|<code style="[^"<>]*">|<a href="[^"<>]*">)$/
const tagsIn = (html: string) => html.match(/<[^>]*>/g) ?? []

function expectInert(mail: MailMessage, hostile: string) {
  const stray = tagsIn(mail.html).filter((tag) => !FRAME_TAGS.test(tag.toLowerCase()))
  expect(stray, `markup from "${hostile}"`).toEqual([])
  expect(mail.html).not.toContain(hostile)
  expect(mail.html).not.toMatch(/href="(?!https:\/\/sightline\.example\.com\/)/)
}

const LINK = 'https://sightline.example.com/x/verify/abc.def'

describe('member-supplied text in mails', () => {
  it.each(HOSTILE)('stays text in the HTML of every mail: %s', (hostile) => {
    expectInert(invitationMail({ to: 'a@example.com', name: hostile, inviterName: hostile, link: LINK }), hostile)
    expectInert(passwordResetMail({ to: 'a@example.com', name: hostile, link: LINK }), hostile)
    expectInert(verificationMail({ to: 'a@example.com', name: hostile, link: LINK }), hostile)
    expectInert(failureReportMail({
      to: 'a@example.com', name: hostile, queryCount: 1,
      failures: [{ queryName: hostile, link: 'https://sightline.example.com/queries/7', error: hostile, count: 2, inARow: 90, lastFailedAt: new Date() }],
    }), hostile)
  })

  it('a link whose address carries quotes or brackets cannot leave its attribute', () => {
    const mail = verificationMail({ to: 'a@example.com', name: 'Ada', link: 'https://sightline.example.com/verify/"><script>x</script>' })
    expect(mail.html).not.toContain('<script>')
    expect(mail.html).toContain('href="https://sightline.example.com/verify/&quot;&gt;&lt;script&gt;x&lt;/script&gt;"')
  })
})
