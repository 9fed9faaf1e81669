import { createVerify, generateKeyPairSync } from 'node:crypto'
import { http, HttpResponse } from 'msw'

/**
 * Google's token endpoint as the service-account guide documents it (developers.google.com/identity/protocols/
 * oauth2/service-account): a JWT-bearer grant whose RS256 assertion must verify against the key and name the key's
 * account, the endpoint as audience and a scope containing `scope`; `invalid_grant` otherwise. Tokens it issued are
 * `valid` until a test revokes them.
 */
export function fakeGoogleToken(o: { project: string; scope: string; requests: { method: string; path: string; body: unknown }[] }) {
  const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 })
  const key = {
    type: 'service_account', project_id: o.project, private_key_id: 'k1', client_email: `sightline@${o.project}.iam.gserviceaccount.com`,
    private_key: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(), token_uri: 'https://oauth2.googleapis.com/token',
  }
  const valid = new Set<string>()
  let issued = 0
  const handler = http.post('https://oauth2.googleapis.com/token', async ({ request }) => {
    const form = new URLSearchParams(await request.text())
    o.requests.push({ method: 'POST', path: '/token', body: Object.fromEntries(form) })
    const [header, claims, signature] = (form.get('assertion') ?? '').split('.')
    const ok = form.get('grant_type') === 'urn:ietf:params:oauth:grant-type:jwt-bearer' && !!signature &&
      createVerify('RSA-SHA256').update(`${header}.${claims}`).verify(publicKey, Buffer.from(signature, 'base64url'))
    const c = ok ? JSON.parse(Buffer.from(claims, 'base64url').toString()) : {}
    if (!ok || c.iss !== key.client_email || c.aud !== 'https://oauth2.googleapis.com/token' || !String(c.scope).includes(o.scope)) {
      return HttpResponse.json({ error: 'invalid_grant', error_description: 'Invalid JWT Signature.' }, { status: 400 })
    }
    const token = `ya29.fake-${++issued}`
    valid.add(token)
    return HttpResponse.json({ access_token: token, expires_in: 3599, token_type: 'Bearer' })
  })
  return {
    key, valid, handler,
    /** The key as the established tool stores it: base64 of the JSON file. */
    keyFile: Buffer.from(JSON.stringify(key)).toString('base64'),
  }
}
