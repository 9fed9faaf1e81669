import type { Deps } from '../deps.ts'
import { TooManyRequests } from '../errors.ts'
import { verifyPassword } from './passwords.ts'
import { claimSignInAttempt, dropSignInAttempt, forgetSignInFailures } from './store.ts'
import { sha256 } from './tokens.ts'
import { waitText } from './wait-text.ts'

export const currentPasswordTexts = {
  tooMany: (wait: string) => `Too many wrong current passwords. Please wait ${wait} and try again.`,
}

/**
 * Check the current password a signed-in user gives to change it. Wrong ones are counted per user in the sign-in
 * attempts table (src/credentials/store.ts), so every web process sees the same count and a stolen session cannot guess N
 * times as often on N processes: past the limit, TooManyRequests with the wait until the oldest leaves the window.
 * The caller is signed in, so the hash takes the gate's trusted line: a sign-in flood does not hold it up.
 */
export async function checkCurrentPassword(deps: Deps, user: { id: number; password_hash: string | null }, password: string): Promise<boolean> {
  const limits = deps.config.signInLimits
  const now = limits.now()
  // one key for both columns: the user is counted whichever address the tries come from
  const key = `user:${user.id}`
  let retryAfterMs = 0
  const { id } = await claimSignInAttempt(deps.sql, {
    account: sha256(key), address: key, at: new Date(now), since: new Date(now - limits.windowMs), purpose: 'current_password',
  }, (counts) => {
    if (counts.addressFailures < limits.currentPasswordMaxFailures) return true
    retryAfterMs = Math.max(1, (counts.addressOldestMs ?? now) + limits.windowMs - now)
    return false
  })
  if (id === undefined) {
    const seconds = Math.ceil(retryAfterMs / 1000)
    throw new TooManyRequests(currentPasswordTexts.tooMany(waitText(retryAfterMs)), seconds)
  }
  let valid: boolean
  try {
    valid = await verifyPassword(password, user.password_hash, { whose: key, rank: 'trusted' })
  } catch (error) {
    await dropSignInAttempt(deps.sql, id) // never checked, so not a wrong password
    throw error
  }
  if (valid) await forgetSignInFailures(deps.sql, { id, account: sha256(key), address: key, purpose: 'current_password' })
  return valid
}
