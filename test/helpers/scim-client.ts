import type { Hono } from 'hono'
import type { Env } from '../../src/http/index.ts'

export const USER_SCHEMA = 'urn:ietf:params:scim:schemas:core:2.0:User'
export const GROUP_SCHEMA = 'urn:ietf:params:scim:schemas:core:2.0:Group'
export const PATCH_SCHEMA = 'urn:ietf:params:scim:api:messages:2.0:PatchOp'

/** A SCIM client as identity providers are: a bearer token, application/scim+json, no cookies. */
export class ScimClient {
  constructor(private app: Hono<Env>, public token: string) {}

  async call(method: string, path: string, body?: unknown): Promise<{ status: number; json: any; type: string | null }> {
    const res = await this.app.request(`/api/scim/v2${path}`, {
      method,
      headers: { authorization: `Bearer ${this.token}`, accept: 'application/scim+json', ...(body === undefined ? {} : { 'content-type': 'application/scim+json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    })
    const text = await res.text()
    return { status: res.status, json: text ? JSON.parse(text) : null, type: res.headers.get('content-type') }
  }

  get = (path: string) => this.call('GET', path)
  post = (path: string, body: unknown) => this.call('POST', path, body)
  put = (path: string, body: unknown) => this.call('PUT', path, body)
  patch = (path: string, operations: unknown[]) => this.call('PATCH', path, { schemas: [PATCH_SCHEMA], Operations: operations })
  delete = (path: string) => this.call('DELETE', path)
}

export const filter = (attribute: string, value: string) => encodeURIComponent(`${attribute} eq "${value}"`)
