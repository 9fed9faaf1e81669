import type { Deps } from '../deps.ts'
import { TooManyRequests } from '../errors.ts'
import { countRecentAccountMails } from './store.ts'

/**
 * Account mails an organization's admins may send in an hour. Enough to invite a whole team in one sitting, yet a
 * leaked admin key cannot turn Sightline's mail server into a cannon aimed at strangers' inboxes (which would also get
 * the server's address blocklisted for everyone's invitations and alerts).
 */
export const ACCOUNT_MAILS_PER_HOUR = 500

export const mailBudgetTexts = {
  exhausted: `Too many invitations and password resets in the last hour (at most ${ACCOUNT_MAILS_PER_HOUR}). Please try again later.`,
}

/** Refuses (429) an invitation or reset mail over the hour's budget; without a mail server nothing is sent, so nothing is counted. */
export async function requireAccountMailBudget(deps: Pick<Deps, 'sql' | 'config'>, orgId: number): Promise<void> {
  if (!deps.config.mail) return
  if (await countRecentAccountMails(deps.sql, orgId) >= ACCOUNT_MAILS_PER_HOUR) throw new TooManyRequests(mailBudgetTexts.exhausted)
}
