import { Hono } from 'hono'
import { dataSourceJson, addDataSourceToGroup, groupDataSources, removeDataSourceFromGroup, setGroupDataSourceViewOnly } from '../../src/data-sources/index.ts'
import { NotFound } from '../../src/errors.ts'
import { createGroup, deleteRegularGroup, renameRegularGroup, groupJson, visibleGroup, visibleGroups } from '../../src/groups/index.ts'
import { addMemberToGroup, groupMembers, removeMemberFromGroup } from '../../src/users/index.ts'
import type { Env } from '../../src/http/index.ts'
import { apiCaller, idParam, jsonBody } from '../../src/http/index.ts'
import { getRunner } from '../../src/runners/index.ts'

/** Groups, their members and their data sources (spec 3 §7 "Groups"). */
export default new Hono<Env>()
  .get('/', async (c) => c.json((await visibleGroups(c.get('deps'), apiCaller(c).principal)).map(groupJson)))
  .post('/', async (c) => c.json(groupJson(await createGroup(c.get('deps'), apiCaller(c).principal, await jsonBody(c.req)))))
  .get('/:id', async (c) => c.json(groupJson(await visibleGroup(c.get('deps'), apiCaller(c).principal, idParam(c.req.param('id'), NotFound)))))
  .post('/:id', async (c) => {
    const group = await renameRegularGroup(c.get('deps'), apiCaller(c).principal, idParam(c.req.param('id'), NotFound), await jsonBody(c.req))
    return c.json(groupJson(group))
  })
  .delete('/:id', async (c) => {
    await deleteRegularGroup(c.get('deps'), apiCaller(c).principal, idParam(c.req.param('id'), NotFound))
    return c.json(null)
  })
  .get('/:id/members', async (c) => {
    const { members } = await groupMembers(c.get('deps'), apiCaller(c).principal, idParam(c.req.param('id'), NotFound))
    return c.json(members)
  })
  .post('/:id/members', async (c) => {
    return c.json(await addMemberToGroup(c.get('deps'), apiCaller(c).principal, idParam(c.req.param('id'), NotFound), await jsonBody(c.req)))
  })
  .delete('/:id/members/:userId', async (c) => {
    await removeMemberFromGroup(c.get('deps'), apiCaller(c).principal, idParam(c.req.param('id'), NotFound), idParam(c.req.param('userId'), NotFound))
    return c.json(null)
  })
  .get('/:id/data_sources', async (c) => {
    const rows = await groupDataSources(c.get('deps'), apiCaller(c).principal, idParam(c.req.param('id'), NotFound))
    return c.json(rows.map((row) => dataSourceJson(row, getRunner(row.type), { admin: true, secretKey: c.get('deps').secretKey })))
  })
  .post('/:id/data_sources', async (c) => {
    const row = await addDataSourceToGroup(c.get('deps'), apiCaller(c).principal, idParam(c.req.param('id'), NotFound), await jsonBody(c.req))
    return c.json(dataSourceJson(row, getRunner(row.type), { admin: true, secretKey: c.get('deps').secretKey }))
  })
  .post('/:id/data_sources/:dsId', async (c) => {
    const row = await setGroupDataSourceViewOnly(c.get('deps'), apiCaller(c).principal, idParam(c.req.param('id'), NotFound),
      idParam(c.req.param('dsId'), NotFound), await jsonBody(c.req))
    return c.json(dataSourceJson(row, getRunner(row.type), { admin: true, secretKey: c.get('deps').secretKey }))
  })
  .delete('/:id/data_sources/:dsId', async (c) => {
    await removeDataSourceFromGroup(c.get('deps'), apiCaller(c).principal, idParam(c.req.param('id'), NotFound), idParam(c.req.param('dsId'), NotFound))
    return c.json(null)
  })
