import type { JSX } from 'react'
import { texts } from '../../../src/shared/texts.ts'
import { LinkNotice } from '../LinkNotice.tsx'
import { ui } from '../ui.ts'
import type { Created } from './model.ts'

const t = texts.userActions

/** The filled-in form's answer: the invitation went by mail, or here is its link to hand over; then Close. */
export function InvitationSent({ user, onClose }: { user: Created; onClose: () => void }): JSX.Element {
  return (
    <div className="flex flex-col gap-4 overflow-y-auto p-5">
      {user.invite_link
        ? <LinkNotice idPrefix="new-user" link={user.invite_link} explanation={t.sendInviteLink(user.name)} />
        : <p role="status" className="text-sm text-slate-700 dark:text-slate-200">{t.invitationMailed(user.email)}</p>}
      <div className="flex justify-end">
        <button type="button" className={ui.primaryButton} onClick={onClose}>{t.close}</button>
      </div>
    </div>
  )
}
