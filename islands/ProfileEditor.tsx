import { useState, type JSX } from 'react'
import { island } from '../src/shared/island.tsx'
import { texts } from '../src/shared/texts.ts'
import { AccountForm } from './lib/profile/AccountForm.tsx'
import { ApiKey } from './lib/profile/ApiKey.tsx'
import type { Group } from './lib/profile/model.ts'
import { PasswordForm } from './lib/profile/PasswordForm.tsx'
import { ProfileHeader, ProfileSection } from './lib/ProfileHeader.tsx'
import { ui } from './lib/ui.ts'

const t = texts.profile

export interface ProfileEditorProps {
  user: {
    id: number
    name: string
    email: string
    profile_image_url: string
    is_invitation_pending: boolean
    groups: Group[]
    /** Present only when the viewer may see it (the user themself or an admin): the server leaves it out otherwise. */
    api_key?: string | null
    /** Their own time zone, or null for the organization's. */
    time_zone: string | null
  }
  /** The time zone names the server accepts (IANA, as its runtime knows them), for the time zone field. */
  timeZones: readonly string[]
  /** Every group, when the viewer may change this user's groups (an admin, on someone else's profile). */
  allGroups: Group[] | null
  /** The password section: on one's own profile, for password sign-in. */
  canChangePassword: boolean
}

/** One's own profile, or an admin's view of someone's (spec 3 §2 "Users and profile"): account, API key, password. */
function ProfileEditor({ user, allGroups, canChangePassword, timeZones }: ProfileEditorProps): JSX.Element {
  const [shown, setShown] = useState({ name: user.name, email: user.email })
  return (
    <div className="mx-auto flex w-full max-w-xl flex-col gap-6">
      <section id="edit" aria-labelledby="profile-account-title" className={`${ui.card} scroll-mt-6 p-5 sm:p-8`}>
        <ProfileHeader name={shown.name} email={shown.email} image={user.profile_image_url} disabled={false} pending={user.is_invitation_pending} />
        <h2 id="profile-account-title" className="sr-only">{t.account}</h2>
        <div className="mt-6">
          <AccountForm user={user} allGroups={allGroups} timeZones={timeZones} onSaved={(saved) => setShown({ name: saved.name, email: saved.email })} />
        </div>
      </section>
      {user.api_key !== undefined && (
        <ProfileSection id="api-key" title={t.apiKey} hint={t.apiKeyHint}>
          {/* a pending user has no key yet: an empty box with Copy and Regenerate would offer nothing */}
          {user.is_invitation_pending
            ? <p className="text-sm text-slate-600 dark:text-slate-400" data-api-key-pending>{t.apiKeyPending}</p>
            : <ApiKey userId={user.id} initial={user.api_key ?? ''} />}
        </ProfileSection>
      )}
      {canChangePassword && (
        <ProfileSection id="password" title={t.password} hint={t.passwordHint}>
          <PasswordForm userId={user.id} email={shown.email} />
        </ProfileSection>
      )}
    </div>
  )
}

export default island('ProfileEditor', ProfileEditor)
