import type { Context } from 'hono'
import { deleteCookie, getCookie } from 'hono/cookie'
import type { JSX, ReactNode } from 'react'
import ProfileEditor from '../../islands/ProfileEditor.tsx'
import UserActions from '../../islands/UserActions.tsx'
import { FLASH_COOKIE } from '../../islands/lib/flash.ts'
import { GroupList, ProfileHeader } from '../../islands/lib/ProfileHeader.tsx'
import { ui } from '../../islands/lib/ui.ts'
import { visibleGroups } from '../../src/groups/index.ts'
import type { Env } from '../../src/http/index.ts'
import { signedIn } from '../../src/http/index.ts'
import { isAdmin, allowed } from '../../src/permissions/index.ts'
import type { Principal } from '../../src/permissions/index.ts'
import { texts } from '../../src/shared/texts.ts'
import { timeZoneNames } from '../../src/shared/time-zone.ts'
import { settingsItems, FlashNotice, renderShellPage, SettingsLayout, SessionsList } from '../../src/ui/index.ts'
import { getUser, type UserJson, listSessions } from '../../src/users/index.ts'
import ReportList from '../../islands/ReportList.tsx'
import { listRows, listSubscriptions } from '../../src/reports/index.ts'
import { reportUiTexts } from '../../src/shared/report-texts.ts'

const t = texts.profile
const byName = (a: { name: string }, b: { name: string }) => a.name.localeCompare(b.name, undefined, { sensitivity: 'base' })
type Groups = { id: number; name: string }[]

/** What anyone who may list users sees of someone else, and what a disabled user's profile shows. */
function ReadOnlyProfile({ user }: { user: UserJson }): JSX.Element {
  return (
    <div className="mx-auto flex w-full max-w-xl flex-col gap-6">
      <section className={`${ui.card} p-5 sm:p-8`}>
        <ProfileHeader name={user.name} email={user.email} image={user.profile_image_url} disabled={user.is_disabled}
          pending={user.is_invitation_pending} />
        {user.is_disabled && (
          <p role="note" className="mt-6 rounded-md border border-amber-300 bg-amber-50 px-4 py-3 text-sm text-amber-900 dark:border-amber-800 dark:bg-amber-950/50 dark:text-amber-100">
            {t.disabledNotice}
          </p>
        )}
        <div className="mt-6">
          <GroupList groups={user.groups as Groups} />
        </div>
      </section>
    </div>
  )
}

/** Inside the settings screen for those who have one (the Users tab); a plain page for those who have none. */
function Frame({ principal, children }: { principal: Principal; children: ReactNode }): JSX.Element {
  if (!settingsItems(principal.permissions).length) return <>{children}</>
  return <SettingsLayout principal={principal} active="users" titleIsHeading={false}>{children}</SettingsLayout>
}

/** What enabling or disabling this user just did (islands/UserActions.tsx reloads the profile), said once. */
function toggledNotice(c: Context<Env>, user: UserJson): string | undefined {
  const flash = getCookie(c, FLASH_COOKIE)
  if (flash !== 'user_enabled' && flash !== 'user_disabled') return undefined
  deleteCookie(c, FLASH_COOKIE, { path: `/users/${user.id}` })
  return flash === 'user_enabled' ? texts.userActions.enabled(user.name) : texts.userActions.disabled(user.name)
}

/** A user's profile page, at /users/{id} (routes/users/[id].tsx) and one's own at /users/me (routes/users/me.tsx). */
export async function profilePage(c: Context<Env>, id: number) {
  const { principal } = signedIn(c)
  const user = await getUser(c.get('deps'), principal, id) // 404 unknown, 403 for those who may not see others
  const self = principal.id === user.id
  const admin = isAdmin(principal)
  const editable = (self || admin) && !user.is_disabled
  let body: JSX.Element
  if (editable) {
    // groups: admins change other people's; one's own are read-only (spec 3 §6)
    const allGroups = admin && !self
      ? (await visibleGroups(c.get('deps'), principal)).map((g) => ({ id: g.id, name: g.name })).sort(byName)
      : null
    body = (
      <ProfileEditor allGroups={allGroups} canChangePassword={self && user.auth_type === 'password'} timeZones={timeZoneNames()}
        user={{
          id: user.id, name: user.name, email: user.email, profile_image_url: user.profile_image_url,
          is_invitation_pending: user.is_invitation_pending, groups: user.groups as Groups, time_zone: user.time_zone,
          // the server puts the key in only for the user themself and admins
          ...('api_key' in user ? { api_key: user.api_key } : {}),
        }} />
    )
  } else {
    body = <ReadOnlyProfile user={user} />
  }
  // spec 3 §4: admins act on other people's accounts, never on their own
  const actions = admin && !self && (
    <UserActions user={{ id: user.id, name: user.name, is_disabled: user.is_disabled, is_invitation_pending: user.is_invitation_pending }} />
  )
  // one's own sessions, or (admins) anyone's: where the account is signed in, each to be ended from here
  const sessions = (self || admin) && !user.is_disabled && (
    <SessionsList userId={user.id} sessions={await listSessions(c.get('deps'), principal, user.id)} canEndAll={admin} />
  )
  // one's own report subscriptions, each to pause or end
  const reports = self && !user.is_disabled && allowed(principal, 'list_dashboards') && (
    <section aria-label={reportUiTexts.yours} className="flex flex-col gap-3" data-own-reports>
      <h2 className="text-lg font-semibold text-slate-900 dark:text-slate-100">{reportUiTexts.yours}</h2>
      <ReportList rows={listRows(await listSubscriptions(c.get('deps'), principal, true))} showOwner={false} />
    </section>
  )
  const notice = toggledNotice(c, user)
  if ('api_key' in user) c.header('Cache-Control', 'no-store') // the page carries a secret
  return renderShellPage(c, (
    <Frame principal={principal}>
      <div className="mx-auto flex w-full max-w-xl flex-col gap-6">
        {notice && <FlashNotice>{notice}</FlashNotice>}
        {body}
        {sessions}
        {reports}
        {actions}
      </div>
    </Frame>
  ), { title: self ? t.title : user.name, section: 'settings' })
}
