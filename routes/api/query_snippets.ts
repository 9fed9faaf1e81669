import { Hono } from 'hono'
import { NotFound } from '../../src/errors.ts'
import type { Env } from '../../src/http/index.ts'
import { requireCaller, idParam, jsonBody } from '../../src/http/index.ts'
import { createSnippet, deleteSnippet, getSnippet, listSnippets, saveSnippet } from '../../src/snippets/index.ts'

/** Query snippets (spec 2 §7, reference §7.5): list, create, get, save, delete. */
export default new Hono<Env>()
  .get('/', requireCaller, async (c) => {
    const { principal } = c.var
    // every snippet of the organization, as a plain list (the established tool's shape), by trigger
    const { results } = await listSnippets(c.get('deps'), principal, { order: null, paging: null })
    return c.json(results)
  })
  .post('/', requireCaller, async (c) => {
    const { principal } = c.var
    return c.json(await createSnippet(c.get('deps'), principal, await jsonBody(c.req)))
  })
  .get('/:id', requireCaller, async (c) => {
    const { principal } = c.var
    return c.json(await getSnippet(c.get('deps'), principal, idParam(c.req.param('id'), NotFound)))
  })
  .post('/:id', requireCaller, async (c) => {
    const { principal } = c.var
    return c.json(await saveSnippet(c.get('deps'), principal, idParam(c.req.param('id'), NotFound), await jsonBody(c.req)))
  })
  .delete('/:id', requireCaller, async (c) => {
    const { principal } = c.var
    await deleteSnippet(c.get('deps'), principal, idParam(c.req.param('id'), NotFound))
    return c.body(null, 204)
  })
