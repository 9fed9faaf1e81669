import { texts } from '../../src/shared/texts.ts'
import { Alert, AuthLayout } from '../../src/ui/index.ts'

const link = 'text-sm font-medium text-indigo-600 hover:underline dark:text-indigo-400'

/** SAML sign-in's refusal page (routes/saml/login.tsx, routes/saml/callback.tsx). */
export function SamlFailedPage({ message }: { message: string }) {
  return (
    <AuthLayout title={texts.login.samlFailedTitle}>
      <Alert>{message}</Alert>
      <p className="text-center"><a href="/login" className={link}>{texts.login.backToLogin}</a></p>
    </AuthLayout>
  )
}
