import { MIN_PASSWORD_LENGTH } from '../credentials/index.ts'
import { HttpError } from '../errors.ts'
import { texts } from '../shared/texts.ts'
import { checkOrigin } from '../settings/index.ts'
import type { SetupInput } from './service.ts'

export type SetupErrors = Partial<Record<keyof SetupInput, string>>

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/

/**
 * Check the setup form (reference §1.2: name, email, password of at least 6, organization name), and the address
 * Sightline is reached at, unless SIGHTLINE_BASE_URL already says it (`originFromEnvironment`).
 */
export function checkSetupForm(form: Record<string, unknown>, o: { originFromEnvironment: boolean }): { input: SetupInput; errors: SetupErrors } {
  const value = (key: string) => (typeof form[key] === 'string' ? (form[key] as string) : '')
  const input = {
    name: value('name').trim(), email: value('email').trim(), password: value('password'), org_name: value('org_name').trim(),
    base_url: o.originFromEnvironment ? '' : value('base_url').trim(),
  }
  const errors: SetupErrors = {}
  if (!input.name) errors.name = texts.setup.required
  else if (input.name.length > 200) errors.name = 'This field is too long.'
  if (!input.email) errors.email = texts.setup.required
  else if (!EMAIL.test(input.email) || input.email.length > 320) errors.email = texts.setup.invalidEmail
  if (!input.password) errors.password = texts.setup.required
  else if (input.password.length < MIN_PASSWORD_LENGTH) errors.password = texts.setup.tooShort
  else if (input.password.length > 1000) errors.password = 'This field is too long.'
  if (!input.org_name) errors.org_name = texts.setup.required
  else if (input.org_name.length > 200) errors.org_name = 'This field is too long.'
  if (!o.originFromEnvironment) {
    if (!input.base_url) errors.base_url = texts.setup.required
    else if (input.base_url.length > 2000) errors.base_url = 'This field is too long.'
    else {
      try {
        input.base_url = checkOrigin(input.base_url)
      } catch (error) {
        if (!(error instanceof HttpError)) throw error
        errors.base_url = error.message
      }
    }
  }
  return { input, errors }
}
