import { createHash, createHmac } from 'node:crypto'

/*
 * AWS Signature Version 4 for a JSON API request (docs.aws.amazon.com/IAM/latest/UserGuide/reference_sigv.html):
 * the canonical request over the method, path, query, the signed headers and the body's hash; the string to sign
 * with the date, region and service; and the key derived from the secret by that same scope.
 */

export interface AwsCredentials { accessKeyId: string; secretAccessKey: string; sessionToken?: string }

const sha256 = (data: string) => createHash('sha256').update(data, 'utf8').digest('hex')
const hmac = (key: Buffer | string, data: string) => createHmac('sha256', key).update(data, 'utf8').digest()

/** RFC 3986 encoding, as the canonical query wants it. */
const encode = (s: string) => encodeURIComponent(s).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`)

export interface SignInput {
  method: string
  url: URL
  headers: Record<string, string>
  body: string
  region: string
  service: string
  credentials: AwsCredentials
  /** `YYYYMMDDTHHMMSSZ`; now when absent. */
  amzDate?: string
}

/** The headers to send: the given ones, `x-amz-date`, the session token if any, and `authorization`. */
export function signV4({ method, url, headers, body, region, service, credentials, amzDate }: SignInput): Record<string, string> {
  const date = amzDate ?? new Date().toISOString().replace(/[-:]/g, '').replace(/\.\d{3}/, '')
  const all: Record<string, string> = { ...headers, host: url.host, 'x-amz-date': date, ...(credentials.sessionToken && { 'x-amz-security-token': credentials.sessionToken }) }
  const names = Object.keys(all).map((n) => n.toLowerCase()).sort()
  const lower = Object.fromEntries(Object.entries(all).map(([k, v]) => [k.toLowerCase(), String(v).trim().replace(/\s+/g, ' ')]))
  const query = [...url.searchParams.entries()].map(([k, v]) => [encode(k), encode(v)]).sort(([a, x], [b, y]) => (a < b ? -1 : a > b ? 1 : x < y ? -1 : 1))
  const canonical = [
    method, url.pathname || '/', query.map(([k, v]) => `${k}=${v}`).join('&'),
    names.map((n) => `${n}:${lower[n]}\n`).join(''), names.join(';'), sha256(body),
  ].join('\n')
  const scope = `${date.slice(0, 8)}/${region}/${service}/aws4_request`
  const toSign = ['AWS4-HMAC-SHA256', date, scope, sha256(canonical)].join('\n')
  let key = hmac(`AWS4${credentials.secretAccessKey}`, date.slice(0, 8))
  for (const part of [region, service, 'aws4_request']) key = hmac(key, part)
  const signature = createHmac('sha256', key).update(toSign, 'utf8').digest('hex')
  return { ...all, authorization: `AWS4-HMAC-SHA256 Credential=${credentials.accessKeyId}/${scope}, SignedHeaders=${names.join(';')}, Signature=${signature}` }
}
