/** The front door of src/mail/: what the rest of Sightline may use of it (the structure test keeps it so). */

export { failureReportMail, MAX_FAILURE_REPORTS_PER_QUERY } from './failure-report.ts'
export type { ReportedFailure } from './failure-report.ts'
export { invitationMail } from './invitation.ts'
export { escapeHtml, mailHtml, queueMail } from './message.ts'
export type { MailMessage } from './message.ts'
export { passwordResetMail } from './password-reset.ts'
export { sendMail } from './send.ts'
export type { RichMailMessage } from './send.ts'
export { verificationMail } from './verification.ts'
