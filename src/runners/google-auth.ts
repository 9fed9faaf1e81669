import { createSign } from 'node:crypto'
import { RunnerError } from './runner.ts'
import { callVendor } from './vendor-http.ts'

/*
 * A Google service account's access token (developers.google.com/identity/protocols/oauth2/service-account): a JWT
 * signed with the key's private key (RS256) is exchanged at Google's token endpoint for a bearer token, kept until a
 * minute before it expires so each run does not sign again. The key is the data source's sealed `jsonKeyFile`
 * (base64 of the JSON file, as the established tool stores it).
 */

export const TOKEN_URL = 'https://oauth2.googleapis.com/token'

interface ServiceAccountKey { client_email: string; private_key: string; private_key_id?: string }
interface Token { value: string; expiresAt: number }

const tokens = new Map<string, Token>()

/** The key file's fields; a clear error for one that is not a service-account key. */
export function parseKey(jsonKeyFile: unknown): ServiceAccountKey {
  const raw = jsonKeyFile == null ? '' : String(jsonKeyFile).trim()
  if (!raw) throw new RunnerError('A service account JSON key is needed (JSON Key File).', 'connection')
  let key: Partial<ServiceAccountKey>
  try {
    key = JSON.parse(raw.startsWith('{') ? raw : Buffer.from(raw, 'base64').toString('utf8'))
  } catch {
    throw new RunnerError('The JSON Key File is not a service account key: it is neither JSON nor base64 of JSON.', 'connection')
  }
  if (typeof key.client_email !== 'string' || typeof key.private_key !== 'string') {
    throw new RunnerError('The JSON Key File is not a service account key: it has no client_email and private_key.', 'connection')
  }
  return key as ServiceAccountKey
}

const base64url = (value: string | Buffer) => Buffer.from(value).toString('base64url')

function assertion(key: ServiceAccountKey, scope: string, now: number): string {
  const header = base64url(JSON.stringify({ alg: 'RS256', typ: 'JWT', ...(key.private_key_id && { kid: key.private_key_id }) }))
  const claims = base64url(JSON.stringify({ iss: key.client_email, scope, aud: TOKEN_URL, iat: now, exp: now + 3600 }))
  let signature: Buffer
  try {
    signature = createSign('RSA-SHA256').update(`${header}.${claims}`).sign(key.private_key)
  } catch {
    throw new RunnerError('The JSON Key File\'s private_key is not a usable RSA key.', 'connection')
  }
  return `${header}.${claims}.${base64url(signature)}`
}

/** A bearer token for `scope`; `fresh` signs again (the last one was refused). */
export async function accessToken(jsonKeyFile: unknown, scope: string, signal: AbortSignal, fresh = false): Promise<string> {
  const key = parseKey(jsonKeyFile)
  const id = `${key.client_email}\n${key.private_key_id ?? ''}\n${scope}`
  const kept = tokens.get(id)
  if (kept && !fresh && kept.expiresAt > Date.now() + 60_000) return kept.value
  const body = new URLSearchParams({ grant_type: 'urn:ietf:params:oauth:grant-type:jwt-bearer', assertion: assertion(key, scope, Math.floor(Date.now() / 1000)) })
  const answer = await callVendor({
    vendor: 'Google', url: new URL(TOKEN_URL), method: 'POST', signal, body: body.toString(),
    headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
  })
  const json = (answer.json ?? {}) as { access_token?: string; expires_in?: number; error?: string; error_description?: string }
  if (answer.status !== 200 || !json.access_token) {
    const why = json.error ? `${json.error}${json.error_description ? `: ${json.error_description}` : ''}` : answer.text || `status ${answer.status}`
    throw new RunnerError(`Google refused the service account key (${key.client_email}): ${why}`, 'connection')
  }
  tokens.set(id, { value: json.access_token, expiresAt: Date.now() + (json.expires_in ?? 3600) * 1000 })
  return json.access_token
}

/** Tests only: forgets every kept token. */
export function forgetTokens() {
  tokens.clear()
}
