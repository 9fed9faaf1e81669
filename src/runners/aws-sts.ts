import { setTimeout as sleep } from 'node:timers/promises'
import { ByteBudget, readBody } from './answer-body.ts'
import { signV4, type AwsCredentials } from './aws-sign.ts'
import { RunnerError } from './runner.ts'
import { askSource } from './source-http.ts'
import { BUSY, busyPauseMs } from './vendor-http.ts'

/*
 * Temporary credentials for an IAM role, from AWS STS's AssumeRole over its Query API
 * (docs.aws.amazon.com/STS/latest/APIReference/API_AssumeRole.html): a form-encoded POST to the region's STS endpoint,
 * signed with the source's own keys, answered in XML with `AssumeRoleResult/Credentials`. A source that names a role
 * runs everything as that role, so the administrator grants Athena and Glue to the role alone. The credentials are
 * kept per source (its keys, role, external id and session name) until shortly before AWS lets them expire, so a
 * burst of runs asks STS once.
 */

export interface RoleRequest {
  region: string
  /** The keys that may assume the role. */
  credentials: AwsCredentials
  roleArn: string
  externalId?: string
  /** Who the session is for, as CloudTrail shows it: the executing user's e-mail, or "sightline". */
  sessionName: string
}

/** Credentials are used until this long before their Expiration, so none expires in the middle of a run. */
const MARGIN_MS = 5 * 60_000
const DURATION_SECONDS = 3_600
/** An STS answer is a few kilobytes; anything much larger is not one. */
const MAX_ANSWER_BYTES = 64 * 1024

const cache = new Map<string, { credentials: AwsCredentials; expires: number }>()

/** Tests only: forget every cached role session. */
export function forgetRoleSessions() {
  cache.clear()
}

/** RoleSessionName allows `[\w+=,.@-]{2,64}`: other characters become `-`. */
export function sessionNameOf(who: string | undefined): string {
  const name = (who ?? '').replace(/[^\w+=,.@-]/g, '-').slice(0, 64)
  return name.length >= 2 ? name : 'sightline'
}

export async function assumeRole(r: RoleRequest, signal: AbortSignal): Promise<AwsCredentials> {
  const key = JSON.stringify([r.region, r.credentials.accessKeyId, r.credentials.secretAccessKey, r.roleArn, r.externalId ?? '', r.sessionName])
  const kept = cache.get(key)
  if (kept && kept.expires - MARGIN_MS > Date.now()) return kept.credentials
  const fresh = await ask(r, signal)
  cache.set(key, fresh)
  return fresh.credentials
}

async function ask(r: RoleRequest, signal: AbortSignal): Promise<{ credentials: AwsCredentials; expires: number }> {
  const url = new URL(`https://sts.${r.region}.amazonaws.com/`)
  const body = new URLSearchParams({
    Action: 'AssumeRole', Version: '2011-06-15', RoleArn: r.roleArn, RoleSessionName: r.sessionName,
    DurationSeconds: String(DURATION_SECONDS), ...(r.externalId && { ExternalId: r.externalId }),
  }).toString()
  for (let attempt = 0; ; attempt++) {
    const headers = signV4({ method: 'POST', url, body, region: r.region, service: 'sts', credentials: r.credentials,
      headers: { 'content-type': 'application/x-www-form-urlencoded; charset=utf-8' } })
    delete headers.host
    const answer = await askSource({ url, method: 'POST', headers, body, signal })
    const chunks: Buffer[] = []
    await readBody(answer, new ByteBudget(MAX_ANSWER_BYTES), signal, (c) => chunks.push(c))
    const xml = Buffer.concat(chunks).toString('utf8')
    if (BUSY.has(answer.status)) {
      const pause = busyPauseMs(answer, attempt)
      if (pause !== undefined) {
        await sleep(pause, undefined, { signal })
        continue
      }
    }
    if (answer.status !== 200) {
      const code = tag(xml, 'Code') ?? `status ${answer.status}`
      const message = tag(xml, 'Message') ?? xml.slice(0, 300)
      throw new RunnerError(`AWS STS refused to assume the role ${r.roleArn} (${code}): ${message}. Check the IAM role, its trust policy and the external ID, and that the access key may assume it.`, 'connection')
    }
    const accessKeyId = tag(xml, 'AccessKeyId')
    const secretAccessKey = tag(xml, 'SecretAccessKey')
    const sessionToken = tag(xml, 'SessionToken')
    const expires = Date.parse(tag(xml, 'Expiration') ?? '')
    if (!accessKeyId || !secretAccessKey || !sessionToken || !Number.isFinite(expires)) {
      throw new RunnerError(`AWS STS answered AssumeRole without credentials: ${xml.slice(0, 300)}`, 'connection')
    }
    return { credentials: { accessKeyId, secretAccessKey, sessionToken }, expires }
  }
}

/** The text of an element of STS's plain XML (no attributes, no nesting of the same name), unescaped. */
function tag(xml: string, name: string): string | undefined {
  const m = new RegExp(`<${name}>([^<]*)</${name}>`).exec(xml)
  if (!m) return undefined
  return m[1].replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&quot;/g, '"').replace(/&apos;/g, "'").replace(/&amp;/g, '&').trim()
}
