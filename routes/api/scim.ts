import { Hono, type Context } from 'hono'
import { HttpError } from '../../src/errors.ts'
import type { Env } from '../../src/http/index.ts'
import { requireCaller, jsonBody } from '../../src/http/index.ts'
import { resourceTypes, schemas, serviceProviderConfig, createScimGroup, deleteScimGroup, getScimGroup, listScimGroups, patchScimGroup, replaceScimGroup, listResponse, ScimError, scimErrorJson, generateScimToken, orgForScimToken, revokeScimToken, scimTokenStatus, createScimUser, deleteScimUser, getScimUser, listScimUsers, patchScimUser, replaceScimUser, type ScimContext } from '../../src/scim/index.ts'
import { publicOrigin } from '../../src/settings/index.ts'

const SCIM_JSON = { 'content-type': 'application/scim+json; charset=utf-8', 'cache-control': 'no-store' }

const idOf = (c: Context<Env>) => c.req.param('id') ?? ''

const scimBody = (c: Context<Env>, body: unknown, status = 200) =>
  status === 204 ? c.body(null, 204) : c.body(JSON.stringify(body), status as 200, SCIM_JSON)

/**
 * Every SCIM call: authenticated by the organization's SCIM bearer token alone (a session or a user's API key is
 * not enough), answered in application/scim+json, and every refusal in SCIM's error schema (RFC 7644 §3.12) rather
 * than Sightline's `{"message"}`, since SCIM clients read only that.
 */
function scim(run: (s: ScimContext, c: Context<Env>) => Promise<Response>) {
  return async (c: Context<Env>) => {
    try {
      const deps = c.get('deps')
      const orgId = await orgForScimToken(deps, c.req.header('authorization'))
      if (orgId === undefined) {
        c.header('WWW-Authenticate', 'Bearer realm="Sightline SCIM"')
        throw new ScimError(401, 'A valid SCIM bearer token is required (Authorization: Bearer <token>).')
      }
      const base = `${(await publicOrigin(deps, orgId)) ?? ''}/api/scim/v2`
      return await run({ deps, orgId, base }, c)
    } catch (error) {
      if (error instanceof ScimError) return scimBody(c, scimErrorJson(error), error.status)
      if (error instanceof HttpError && error.status < 500) {
        return scimBody(c, scimErrorJson(new ScimError(error.status, error.message, error.status === 400 ? 'invalidSyntax' : undefined)), error.status)
      }
      throw error
    }
  }
}

export default new Hono<Env>()
  // the token, for admins signed in to Sightline (the settings page)
  .get('/token', requireCaller, async (c) => c.json(await scimTokenStatus(c.get('deps'), c.var.principal)))
  .post('/token', requireCaller, async (c) => c.json(await generateScimToken(c.get('deps'), c.var.principal)))
  .delete('/token', requireCaller, async (c) => {
    await revokeScimToken(c.get('deps'), c.var.principal)
    return c.body(null, 204)
  })
  .get('/v2/ServiceProviderConfig', scim(async (s, c) => scimBody(c, serviceProviderConfig(s.base))))
  .get('/v2/Schemas', scim(async (s, c) => scimBody(c, listResponse(schemas(s.base), 2, 1))))
  .get('/v2/Schemas/:id', scim(async (s, c) => {
    const schema = schemas(s.base).find((x) => x.id === idOf(c))
    if (!schema) throw new ScimError(404, 'No such schema.')
    return scimBody(c, schema)
  }))
  .get('/v2/ResourceTypes', scim(async (s, c) => scimBody(c, listResponse(resourceTypes(s.base), 2, 1))))
  .get('/v2/ResourceTypes/:id', scim(async (s, c) => {
    const type = resourceTypes(s.base).find((x) => x.id === idOf(c))
    if (!type) throw new ScimError(404, 'No such resource type.')
    return scimBody(c, type)
  }))
  .get('/v2/Users', scim(async (s, c) => scimBody(c, await listScimUsers(s, c.req.query()))))
  .post('/v2/Users', scim(async (s, c) => scimBody(c, await createScimUser(s, await jsonBody(c.req)), 201)))
  .get('/v2/Users/:id', scim(async (s, c) => scimBody(c, await getScimUser(s, idOf(c)))))
  .put('/v2/Users/:id', scim(async (s, c) => scimBody(c, await replaceScimUser(s, idOf(c), await jsonBody(c.req)))))
  .patch('/v2/Users/:id', scim(async (s, c) => scimBody(c, await patchScimUser(s, idOf(c), await jsonBody(c.req)))))
  .delete('/v2/Users/:id', scim(async (s, c) => {
    await deleteScimUser(s, idOf(c))
    return scimBody(c, null, 204)
  }))
  .get('/v2/Groups', scim(async (s, c) => scimBody(c, await listScimGroups(s, c.req.query()))))
  .post('/v2/Groups', scim(async (s, c) => scimBody(c, await createScimGroup(s, await jsonBody(c.req)), 201)))
  .get('/v2/Groups/:id', scim(async (s, c) => scimBody(c, await getScimGroup(s, idOf(c), c.req.query()))))
  .put('/v2/Groups/:id', scim(async (s, c) => scimBody(c, await replaceScimGroup(s, idOf(c), await jsonBody(c.req)))))
  .patch('/v2/Groups/:id', scim(async (s, c) => {
    await patchScimGroup(s, idOf(c), await jsonBody(c.req))
    return scimBody(c, null, 204)
  }))
  .delete('/v2/Groups/:id', scim(async (s, c) => {
    await deleteScimGroup(s, idOf(c))
    return scimBody(c, null, 204)
  }))
  .all('/v2/*', scim(async () => { throw new ScimError(404, 'No such SCIM endpoint.') }))
