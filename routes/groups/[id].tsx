import { Hono } from 'hono'
import type { JSX } from 'react'
import GroupMembers from '../../islands/GroupMembers.tsx'
import { MemberRow } from '../../islands/lib/MemberRow.tsx'
import { ui } from '../../islands/lib/ui.ts'
import { NotFound } from '../../src/errors.ts'
import { groupMembers } from '../../src/users/index.ts'
import type { Env } from '../../src/http/index.ts'
import { signedIn, idParam } from '../../src/http/index.ts'
import { isAdmin } from '../../src/permissions/index.ts'
import { texts } from '../../src/shared/texts.ts'
import { GroupFrame, renderShellPage } from '../../src/ui/index.ts'

const t = texts.groups

type Member = { id: number; name: string; email: string; profile_image_url: string; is_disabled: boolean }

/** The members as a member who is not an admin sees them: a list, nothing to change, no script. */
function MemberList({ members }: { members: Member[] }): JSX.Element {
  return (
    <section aria-labelledby="group-members-title" className="flex flex-col gap-4">
      <h2 id="group-members-title" className="text-lg font-semibold text-slate-900 dark:text-slate-100">{t.members}</h2>
      {members.length === 0 ? (
        <p className={`${ui.card} px-6 py-12 text-center text-sm text-slate-600 dark:text-slate-400`}>{t.emptyMembers}</p>
      ) : (
        <ul className={`${ui.card} divide-y divide-slate-100 dark:divide-slate-800`} aria-labelledby="group-members-title">
          {members.map((m) => <MemberRow key={m.id} member={m} />)}
        </ul>
      )}
    </section>
  )
}

/** A group's members (spec 3 §2 "Groups"): admins add and remove them; members who may list users see them. */
export default new Hono<Env>().get('/', async (c) => {
  const { principal } = signedIn(c)
  const { group, members: users } = await groupMembers(c.get('deps'), principal, idParam(c.req.param('id'), NotFound))
  const admin = isAdmin(principal)
  const members = users.map((u) => ({ id: u.id, name: u.name, email: u.email, profile_image_url: u.profile_image_url, is_disabled: u.is_disabled }))
  const builtin = group.type === 'builtin'
  return renderShellPage(c, (
    <GroupFrame principal={principal} group={group} active="members">
      {admin
        ? <GroupMembers group={{ id: group.id, name: group.name, builtin }} members={members} currentUserId={principal.id} />
        : <MemberList members={members} />}
    </GroupFrame>
  ), { title: `${group.name} · ${t.members}`, section: 'settings' })
})
