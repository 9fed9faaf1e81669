import { lazy, Suspense, useState, type JSX } from 'react'
import { island } from '../src/shared/island.tsx'
import { texts } from '../src/shared/texts.ts'
import { api, ApiError, serverMessage } from './lib/api.ts'
import { toast } from './lib/bus.ts'
import { flashNextPage } from './lib/flash.ts'
import { LinkNotice } from './lib/LinkNotice.tsx'
import { ProfileSection } from './lib/ProfileHeader.tsx'
import { ui } from './lib/ui.ts'

const ConfirmDialog = lazy(() => import('./lib/ConfirmDialog.tsx'))

const t = texts.userActions

export interface UserActionsProps {
  user: { id: number; name: string; is_disabled: boolean; is_invitation_pending: boolean }
}

type Action = 'enable' | 'disable' | 'delete' | 'invite' | 'reset'

/** Spec 3 §8: the action's failure, with the server's message, else the status text, else 'Unknown error'. */
function failure(title: string, error: unknown): string {
  const detail = serverMessage(error) || (error instanceof ApiError && error.statusText) || t.unknownError
  return `${title}: ${detail}`
}

/**
 * What an admin does to someone else's account on their profile (spec 3 §2, §4): enable or disable, delete a pending
 * invitation (after confirming), resend an invitation, send a password reset. Enabling and disabling reload the
 * profile, since what it may show changes (a disabled user's is read-only); the page then says what happened. With
 * no mail server, invitation and reset links are shown here to hand over.
 */
function UserActions({ user }: UserActionsProps): JSX.Element {
  const [busy, setBusy] = useState<Action | null>(null)
  const [confirmingDelete, setConfirmingDelete] = useState(false)
  const [link, setLink] = useState<{ url: string; explanation: string } | null>(null)

  /** Runs one action at a time; the buttons stay disabled when the action leaves the page. */
  async function run(action: Action, call: () => Promise<'leaving' | void>, failed: string) {
    setBusy(action)
    try {
      if ((await call()) === 'leaving') return
    } catch (error) {
      toast(failure(failed, error), 'error')
    }
    setBusy(null)
  }

  const toggle = (enable: boolean) => run(enable ? 'enable' : 'disable', async () => {
    await api(enable ? 'DELETE' : 'POST', `/api/users/${user.id}/disable`)
    flashNextPage(enable ? 'user_enabled' : 'user_disabled', `/users/${user.id}`)
    window.location.reload()
    return 'leaving' as const
  }, enable ? t.cannotEnable : t.cannotDisable)

  const sendInvitation = () => run('invite', async () => {
    setLink(null)
    const answer = await api<{ invite_link?: string }>('POST', `/api/users/${user.id}/invite`)
    if (answer.invite_link) setLink({ url: answer.invite_link, explanation: t.sendInviteLink(user.name) })
    else toast(t.invitationSent)
  }, t.resendFailed)

  const sendReset = () => run('reset', async () => {
    setLink(null)
    const answer = await api<{ reset_link?: string }>('POST', `/api/users/${user.id}/reset_password`)
    if (answer.reset_link) setLink({ url: answer.reset_link, explanation: t.sendResetLink(user.name) })
    else toast(t.resetSent)
  }, t.resetFailed)

  async function remove() {
    try {
      await api('DELETE', `/api/users/${user.id}`)
      // the profile is gone: the pending invitations say what happened
      flashNextPage('user_deleted', '/users')
      window.location.assign('/users/pending')
    } catch (error) {
      toast(failure(t.cannotDelete, error), 'error')
      setConfirmingDelete(false)
    }
  }

  const active = !user.is_disabled
  return (
    <ProfileSection id="user-actions" title={t.title} hint={t.hint}>
      <div className="flex flex-col gap-4">
        <div className="flex flex-wrap gap-3" aria-busy={busy !== null || undefined}>
          {active && user.is_invitation_pending && (
            <button type="button" className={ui.secondaryButton} disabled={busy !== null} onClick={sendInvitation}>{t.resendInvitation}</button>
          )}
          {active && !user.is_invitation_pending && (
            <button type="button" className={ui.secondaryButton} disabled={busy !== null} onClick={sendReset}>{t.resetPassword}</button>
          )}
          {active
            ? <button type="button" className={ui.dangerButton} disabled={busy !== null} onClick={() => toggle(false)}>{t.disable}</button>
            : <button type="button" className={ui.primaryButton} disabled={busy !== null} onClick={() => toggle(true)}>{t.enable}</button>}
          {user.is_invitation_pending && (
            <button type="button" className={ui.dangerButton} disabled={busy !== null} onClick={() => setConfirmingDelete(true)}>{t.delete}</button>
          )}
        </div>
        {link && <LinkNotice idPrefix="user-action" link={link.url} explanation={link.explanation} />}
      </div>
      {confirmingDelete && (
        <Suspense fallback={null}>
          <ConfirmDialog title={t.deleteTitle} body={t.deleteConfirm(user.name)} confirm={t.delete} busyLabel={t.deleting}
            cancel={texts.profile.cancel} onConfirm={remove} onClose={() => setConfirmingDelete(false)} />
        </Suspense>
      )}
    </ProfileSection>
  )
}

export default island('UserActions', UserActions)
