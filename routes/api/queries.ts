import { Hono, type Context } from 'hono'
import { NotFound } from '../../src/errors.ts'
import type { CallerEnv, Env } from '../../src/http/index.ts'
import { requireCaller, idParam, jsonBody, objectRoutes, parseJsonText } from '../../src/http/index.ts'
import { grantQueryAccess, queryAcl, queryGrantCheck, revokeQueryAccess, queryJson, queryListItemJson, queryVersionJson, archiveQuery, createQuery, forkQuery, getQuery, getQueryByApiKey, listQueries, queryTags, recentQueries, regenerateQueryApiKey, saveQuery, setFavorite, type QueryListKind, listQueryVersions, restoreQueryVersion } from '../../src/queries/index.ts'
import { requirePrincipal } from '../../src/permissions/index.ts'

const queryId = <E extends Env>(c: Context<E>) => idParam(c.req.param('id'), NotFound)

/** JSON that no cache keeps. */
function privateJson<E extends Env>(c: Context<E>, body: unknown) {
  c.header('Cache-Control', 'no-store')
  return c.json(body)
}

/** The list endpoints share their parameters; `tags` repeats (`tags=a&tags=b`, or `tags[]=` as axios sends it). */
const list = (kind: QueryListKind) => async (c: Context<CallerEnv>) => {
  const { principal } = c.var
  const tags = [...(c.req.queries('tags') ?? []), ...(c.req.queries('tags[]') ?? [])]
  const page = await listQueries(c.get('deps'), principal, kind, c.req.query(), tags)
  return privateJson(c, { count: page.count, page: page.page, page_size: page.page_size, results: page.rows.map((r) => queryListItemJson(r, page.users)) })
}

/** A body that may be absent (restore): nothing is an empty object, anything else must be JSON. */
async function optionalJsonBody<E extends Env>(c: Context<E>): Promise<unknown> {
  const text = await c.req.text()
  return text.trim() ? parseJsonText(text) : {}
}

/**
 * Saved queries (spec 1 §7, spec 2 §7 "Queries"; reference §3.1). Execution lives in query_results and jobs.
 * Every answer may carry a query's API key, so none is stored by caches (set per answer: other route files are
 * mounted under /api/queries too, and a middleware here would reach their answers).
 */
export default new Hono<Env>()
  .get('/', requireCaller, list('all'))
  .get('/my', requireCaller, list('my'))
  .get('/favorites', requireCaller, list('favorites'))
  .get('/archive', requireCaller, list('archive'))
  // a plain array, as the established tool answers and the query picker reads it
  .get('/recent', requireCaller, async (c) => {
    const { rows, users } = await recentQueries(c.get('deps'), c.var.principal)
    return privateJson(c, rows.map((r) => queryListItemJson(r, users)))
  })
  .get('/tags', requireCaller, async (c) => privateJson(c, { tags: await queryTags(c.get('deps'), c.var.principal) }))
  .post('/', requireCaller, async (c) => {
    const { principal } = c.var
    return privateJson(c, queryJson(await createQuery(c.get('deps'), principal, await jsonBody(c.req))))
  })
  .get('/:id', async (c) => {
    // the query's own API key (an embed) reads this one query; any other caller must be signed in
    const objectApiKey = c.get('objectApiKey')
    if (!c.get('principal') && objectApiKey) return privateJson(c, queryJson(await getQueryByApiKey(c.get('deps'), queryId(c), objectApiKey)))
    const principal = requirePrincipal(c.get('principal'))
    return privateJson(c, queryJson(await getQuery(c.get('deps'), principal, queryId(c))))
  })
  .post('/:id', requireCaller, async (c) => {
    const { principal } = c.var
    return privateJson(c, queryJson(await saveQuery(c.get('deps'), principal, queryId(c), await jsonBody(c.req))))
  })
  .delete('/:id', requireCaller, async (c) => {
    const { principal } = c.var
    await archiveQuery(c.get('deps'), principal, queryId(c))
    return privateJson(c, null)
  })
  .post('/:id/fork', requireCaller, async (c) => {
    const { principal } = c.var
    return privateJson(c, queryJson(await forkQuery(c.get('deps'), principal, queryId(c))))
  })
  .post('/:id/regenerate_api_key', requireCaller, async (c) => {
    const { principal } = c.var
    return privateJson(c, queryJson(await regenerateQueryApiKey(c.get('deps'), principal, queryId(c))))
  })
  .route('/', objectRoutes({
    type: 'queries', setFavorite, acl: queryAcl, grant: grantQueryAccess, revoke: revokeQueryAccess, holds: queryGrantCheck,
  }))
  .get('/:id/versions', requireCaller, async (c) => {
    const { principal } = c.var
    const { rows, users } = await listQueryVersions(c.get('deps'), principal, queryId(c))
    return privateJson(c, { results: rows.map((v) => queryVersionJson(v, users)) })
  })
  .post('/:id/versions/:version/restore', requireCaller, async (c) => {
    const { principal } = c.var
    const version = idParam(c.req.param('version'), NotFound)
    return privateJson(c, queryJson(await restoreQueryVersion(c.get('deps'), principal, queryId(c), version, await optionalJsonBody(c))))
  })
