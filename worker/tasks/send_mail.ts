import type { Task } from 'graphile-worker'
import type { MailSettings } from '../../src/config.ts'
import { assertSendMail } from '../../src/jobs/index.ts'
import { log } from '../../src/log.ts'
import { sendMail } from '../../src/mail/index.ts'

/**
 * Send one queued mail. A refusal or an unreachable server throws, so graphile-worker tries again later (with growing
 * waits, up to the job's attempts); with mail no longer configured the mail cannot go anywhere and is dropped.
 */
export const sendMailTask = (settings: MailSettings | undefined): Task => async (payload) => {
  const message = assertSendMail(payload)
  if (!settings) {
    log.warn('mail dropped: the mail server is not configured', { subject: message.subject })
    return
  }
  await sendMail(settings, message)
}
