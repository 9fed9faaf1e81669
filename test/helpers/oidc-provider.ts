import http from 'node:http'
import type { AddressInfo } from 'node:net'
import { exportJWK, generateKeyPair, SignJWT, decodeJwt } from 'jose'
import Provider from 'oidc-provider'

/**
 * A real OpenID Connect provider (the certified `oidc-provider` package) on 127.0.0.1 for the tests: code flow with
 * PKCE, signed ID tokens, userinfo. Its people are `users` (account id → claims), which a test may change between
 * sign-ins (their `groups`, say). The login step is a small form the helper serves (the browser test fills it);
 * `autoLogin` names the account that signs in without it (the in-process walks).
 */
export interface TestProvider {
  issuer: string
  users: Map<string, Record<string, unknown>>
  /** The account the next login step signs in as, without showing the form. */
  autoLogin: string | undefined
  /** When set, the token endpoint's ID token is re-signed with the provider's key for this audience instead. */
  forgeAudience: string | undefined
  /** When set, the token endpoint answers with the ID token it issued for the previous sign-in (a replay). */
  replayIdToken: boolean
  /** Register another client (a token for it must not sign anyone in to Sightline). */
  clients: ClientRegistration[]
  stop(): Promise<void>
}

export interface ClientRegistration {
  client_id: string
  client_secret: string
  redirect_uris: string[]
}

export async function startOidcProvider(o: { clients: ClientRegistration[]; users?: Record<string, Record<string, unknown>>}): Promise<TestProvider> {
  const { privateKey } = await generateKeyPair('RS256', { extractable: true })
  const signingJwk = { ...(await exportJWK(privateKey)), kid: 'test-key', alg: 'RS256', use: 'sig' }
  const state: TestProvider = {
    issuer: '', users: new Map(Object.entries(o.users ?? {})), autoLogin: undefined, forgeAudience: undefined, replayIdToken: false,
    clients: o.clients, stop: async () => {},
  }
  let provider: Provider
  let handle: (req: http.IncomingMessage, res: http.ServerResponse) => void = () => {}
  const server = http.createServer((req, res) => {
    route(req, res).catch((error) => {
      res.statusCode = 500
      res.end(String(error))
    })
  })
  async function route(req: http.IncomingMessage, res: http.ServerResponse) {
    const url = new URL(req.url ?? '/', state.issuer)
    const interaction = /^\/interaction\/([\w-]+)$/.exec(url.pathname)
    if (interaction && req.method === 'GET') {
      if (state.autoLogin) return finish(req, res, state.autoLogin)
      res.setHeader('content-type', 'text/html')
      return res.end(`<!doctype html><title>Test provider</title><form method="post"><label>User <input name="login" autofocus></label><button type="submit">Sign in</button></form>`)
    }
    if (interaction && req.method === 'POST') {
      const body = new URLSearchParams(await readBody(req))
      return finish(req, res, body.get('login') ?? '')
    }
    if (req.method === 'POST' && url.pathname === '/token' && !req.headers['x-forwarded-by-forger']) return forgedToken(req, res)
    handle(req, res)
  }
  async function finish(req: http.IncomingMessage, res: http.ServerResponse, accountId: string) {
    const details = await provider.interactionDetails(req, res)
    if (!state.users.has(accountId)) {
      return provider.interactionFinished(req, res, { error: 'access_denied', error_description: 'unknown user' }, { mergeWithLastSubmission: false })
    }
    const grant = new provider.Grant({ accountId, clientId: details.params.client_id })
    grant.addOIDCScope('openid email profile')
    const grantId = await grant.save()
    await provider.interactionFinished(req, res, { login: { accountId }, consent: { grantId } }, { mergeWithLastSubmission: false })
  }
  let lastIdToken: string | undefined
  /**
   * Pass the token request on; then, when a test asks, sign its ID token again with the provider's own key for another
   * audience, or answer with the previous sign-in's ID token instead.
   */
  async function forgedToken(req: http.IncomingMessage, res: http.ServerResponse) {
    const body = await readBody(req)
    const upstream = await fetch(`${state.issuer}/token`, {
      method: 'POST', body, headers: { 'x-forwarded-by-forger': '1', 'content-type': req.headers['content-type'] ?? '', ...(req.headers.authorization ? { authorization: req.headers.authorization } : {}) },
    })
    const answer = await upstream.json() as Record<string, unknown>
    res.statusCode = upstream.status
    const fresh = String(answer.id_token)
    if (!answer.id_token) {
      // an error (a code of another client, say): passed on as it is
    } else if (state.forgeAudience) {
      answer.id_token = await new SignJWT({ ...decodeJwt(fresh), aud: state.forgeAudience }).setProtectedHeader({ alg: 'RS256', kid: 'test-key' }).sign(privateKey)
    } else if (state.replayIdToken && lastIdToken) {
      answer.id_token = lastIdToken
    }
    if (answer.id_token) lastIdToken = fresh
    res.setHeader('content-type', 'application/json')
    res.end(JSON.stringify(answer))
  }
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const port = (server.address() as AddressInfo).port
  state.issuer = `http://127.0.0.1:${port}`
  provider = new Provider(state.issuer, {
    clients: o.clients.map((c) => ({ ...c, token_endpoint_auth_method: 'client_secret_post', grant_types: ['authorization_code'], response_types: ['code'] })),
    jwks: { keys: [signingJwk] },
    cookies: { keys: ['test-provider-cookie-key'] },
    claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['name', 'groups', 'hd'] },
    // the claims also in the ID token, as Keycloak and Entra ID send them (userinfo is asked too)
    conformIdTokenClaims: false,
    features: { devInteractions: { enabled: false } },
    interactions: { url: (_ctx: unknown, interaction: { uid: string }) => `/interaction/${interaction.uid}` },
    findAccount: (_ctx: unknown, id: string) => {
      const claims = state.users.get(id)
      return claims && { accountId: id, claims: () => ({ sub: id, ...state.users.get(id) }) }
    },
    pkce: { required: () => true },
  })
  handle = provider.callback()
  state.stop = () => new Promise<void>((resolve) => {
    server.closeAllConnections()
    server.close(() => resolve())
  })
  return state
}

function readBody(req: http.IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = []
    req.on('data', (c: Buffer) => chunks.push(c))
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')))
    req.on('error', reject)
  })
}

/**
 * Follow the provider's redirects from an authorization address, as a browser would (keeping the provider's
 * cookies), until it sends the browser back to Sightline; returns that address (the callback with code and state).
 */
export async function walkProvider(authorizeUrl: string, redirectPrefix: string): Promise<URL> {
  const jar = new Map<string, string>()
  let url = authorizeUrl
  for (let hop = 0; hop < 10; hop++) {
    const res = await fetch(url, { redirect: 'manual', headers: jar.size ? { cookie: [...jar].map(([k, v]) => `${k}=${v}`).join('; ') } : {} })
    for (const cookie of res.headers.getSetCookie()) {
      const [pair] = cookie.split(';')
      const i = pair.indexOf('=')
      jar.set(pair.slice(0, i), pair.slice(i + 1))
    }
    const location = res.headers.get('location')
    if (!location) throw new Error(`the provider stopped at ${url}: ${res.status} ${(await res.text()).slice(0, 300)}`)
    const next = new URL(location, url)
    if (next.href.startsWith(redirectPrefix)) return next
    url = next.href
  }
  throw new Error('the provider redirected too often')
}
