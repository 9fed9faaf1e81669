/**
 * SCIM provisioning as an identity provider's first sync runs it, against one real Sightline process on its own
 * embedded PostgreSQL: for each of 1,000 people a lookup by userName and a create; then 50 groups, each looked up,
 * created and given its 20 members in one PATCH (Entra ID's style); then 1,000 users read back in pages of 100.
 * Target: the whole run under 30 s. `NODE_ENV=production npx tsx bench/scim.ts`; prints the figures and writes
 * bench/scim.json.
 */
import fs from 'node:fs'
import path from 'node:path'
import { performance } from 'node:perf_hooks'
import { machine, percentile, round, startBenchSightline } from './sightline.ts'

const USERS = 1000
const GROUPS = 50
const PER_GROUP = 20
const figures: Record<string, unknown> = machine()

const sightline = await startBenchSightline('scim')
const { admin, base } = sightline
try {
  const { token } = await admin.api<{ token: string }>('POST', '/api/scim/token')
  const scim = async (method: string, pathname: string, body?: unknown) => {
    const res = await fetch(`${base}/api/scim/v2${pathname}`, {
      method, body: body === undefined ? undefined : JSON.stringify(body),
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/scim+json' },
    })
    const text = await res.text()
    if (!res.ok) throw new Error(`${method} ${pathname}: ${res.status} ${text}`)
    return text ? JSON.parse(text) : null
  }
  const eq = (attribute: string, value: string) => encodeURIComponent(`${attribute} eq "${value}"`)
  const times: Record<string, number[]> = { lookup: [], createUser: [], createGroup: [], patchMembers: [], page: [] }
  const timed = async <T>(what: string, run: () => Promise<T>): Promise<T> => {
    const t0 = performance.now()
    const value = await run()
    times[what].push(performance.now() - t0)
    return value
  }

  const began = performance.now()
  const ids: string[] = []
  for (let i = 0; i < USERS; i++) {
    const userName = `scim.person${i}@example.com`
    const found = await timed('lookup', () => scim('GET', `/Users?filter=${eq('userName', userName)}&startIndex=1&count=100`))
    if (found.totalResults !== 0) throw new Error(`${userName} already exists`)
    const user = await timed('createUser', () => scim('POST', '/Users', {
      schemas: ['urn:ietf:params:scim:schemas:core:2.0:User'], userName, active: true, externalId: `ext-${i}`,
      name: { givenName: 'Person', familyName: String(i) }, emails: [{ primary: true, type: 'work', value: userName }],
    }))
    ids.push(user.id)
  }
  const usersDone = performance.now()
  for (let g = 0; g < GROUPS; g++) {
    const displayName = `SCIM Team ${g}`
    await timed('lookup', () => scim('GET', `/Groups?excludedAttributes=members&filter=${eq('displayName', displayName)}`))
    const group = await timed('createGroup', () => scim('POST', '/Groups', { displayName, members: [] }))
    const members = ids.slice((g * PER_GROUP) % USERS, (g * PER_GROUP) % USERS + PER_GROUP).map((value) => ({ value }))
    await timed('patchMembers', () => scim('PATCH', `/Groups/${group.id}`, {
      schemas: ['urn:ietf:params:scim:api:messages:2.0:PatchOp'], Operations: [{ op: 'Add', path: 'members', value: members }],
    }))
  }
  const groupsDone = performance.now()
  for (let start = 1; start <= USERS; start += 100) await timed('page', () => scim('GET', `/Users?startIndex=${start}&count=100`))
  const end = performance.now()

  // a deactivation on one web process, and how long until a second web process of the same installation refuses the
  // user's key that it has just accepted (its cache of callers is told through the database's NOTIFY)
  const second = await sightline.another({ SIGHTLINE_PROCESS: 'web' })
  const refusedAfter: number[] = []
  for (const id of ids.slice(0, 20)) {
    // people provisioned by SCIM get a key once they first sign in; an admin makes one here
    const { api_key: key } = await admin.api<{ api_key: string }>('POST', `/api/users/${id}/regenerate_api_key`)
    const accepted = async () => (await fetch(`${second}/api/session`, { headers: { authorization: `Key ${key}` } })).status === 200
    if (!(await accepted())) throw new Error(`user ${id}'s key is not accepted before the deactivation`)
    await scim('PATCH', `/Users/${id}`, { schemas: ['urn:ietf:params:scim:api:messages:2.0:PatchOp'], Operations: [{ op: 'replace', path: 'active', value: false }] })
    const patched = performance.now()
    while (await accepted()) if (performance.now() - patched > 5_000) throw new Error(`user ${id} is still accepted 5 s after the deactivation`)
    refusedAfter.push(performance.now() - patched)
  }

  const stats = (xs: number[]) => ({ n: xs.length, p50Ms: round(percentile(xs, 0.5)), p95Ms: round(percentile(xs, 0.95)), maxMs: round(Math.max(...xs)) })
  figures.scim_provisioning = {
    users: USERS, groups: GROUPS, membersPerGroup: PER_GROUP,
    totalSeconds: round((end - began) / 1000), usersSeconds: round((usersDone - began) / 1000),
    groupsSeconds: round((groupsDone - usersDone) / 1000), readBackSeconds: round((end - groupsDone) / 1000),
    targetSeconds: 30,
    requests: Object.fromEntries(Object.entries(times).map(([k, v]) => [k, stats(v)])),
    deactivationRefusedOnSecondWebProcess: { ...stats(refusedAfter), targetMs: 1000 },
  }
  console.log(JSON.stringify(figures, null, 2))
  fs.writeFileSync(path.join(import.meta.dirname, 'scim.json'), JSON.stringify(figures, null, 2) + '\n')
} finally {
  await sightline.stop()
}
