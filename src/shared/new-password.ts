import { adminTexts } from './admin-texts.ts'

/** spec 3 §9: the shortest password Sightline takes. */
export const MIN_PASSWORD_LENGTH = 6

const t = adminTexts.profile

/** A new password and its repetition, as the profile's Change Password and the invitation and reset pages ask them. */
export interface NewPassword {
  password: string
  repeat: string
}

/**
 * What is wrong with a new password and its repetition, per field, in the profile form's words (spec 3 §5): both
 * required, at least six characters, and the same. One rule for the profile (in the browser) and the link pages (on
 * the server), so they can never disagree.
 */
export function newPasswordProblems(v: NewPassword): Partial<Record<keyof NewPassword, string>> {
  const length = (s: string) => (!s ? t.required : s.length < MIN_PASSWORD_LENGTH ? t.tooShort : undefined)
  const problems: Partial<Record<keyof NewPassword, string>> = {}
  const password = length(v.password)
  const repeat = length(v.repeat) ?? (v.repeat !== v.password ? t.passwordsDontMatch : undefined)
  if (password) problems.password = password
  if (repeat) problems.repeat = repeat
  return problems
}
