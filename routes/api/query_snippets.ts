import { Hono } from 'hono'
import { NotFound } from '../../src/errors.ts'
import type { Env } from '../../src/http/index.ts'
import { apiCaller, idParam, jsonBody } from '../../src/http/index.ts'
import { createSnippet, deleteSnippet, getSnippet, listSnippets, saveSnippet } from '../../src/snippets/index.ts'

/** Query snippets (spec 2 §7, reference §7.5): list, create, get, save, delete. */
export default new Hono<Env>()
  .get('/', async (c) => {
    const { principal } = apiCaller(c)
    // every snippet of the organization, as a plain list (the established tool's shape), by trigger
    const { results } = await listSnippets(c.get('deps'), principal, { order: null, paging: null })
    return c.json(results)
  })
  .post('/', async (c) => {
    const { principal } = apiCaller(c)
    return c.json(await createSnippet(c.get('deps'), principal, await jsonBody(c.req)))
  })
  .get('/:id', async (c) => {
    const { principal } = apiCaller(c)
    return c.json(await getSnippet(c.get('deps'), principal, idParam(c.req.param('id'), NotFound)))
  })
  .post('/:id', async (c) => {
    const { principal } = apiCaller(c)
    return c.json(await saveSnippet(c.get('deps'), principal, idParam(c.req.param('id'), NotFound), await jsonBody(c.req)))
  })
  .delete('/:id', async (c) => {
    const { principal } = apiCaller(c)
    await deleteSnippet(c.get('deps'), principal, idParam(c.req.param('id'), NotFound))
    return c.body(null, 204)
  })
