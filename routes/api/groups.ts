import { Hono } from 'hono'
import { dataSourceJson, addDataSourceToGroup, groupDataSources, removeDataSourceFromGroup, setGroupDataSourceViewOnly } from '../../src/data-sources/index.ts'
import { NotFound } from '../../src/errors.ts'
import { createGroup, deleteRegularGroup, renameRegularGroup, groupJson, visibleGroup, visibleGroups } from '../../src/groups/index.ts'
import { addMemberToGroup, groupMembers, removeMemberFromGroup } from '../../src/users/index.ts'
import type { Env } from '../../src/http/index.ts'
import { requireCaller, idParam, jsonBody } from '../../src/http/index.ts'
import { getRunner } from '../../src/runners/index.ts'

/** Groups, their members and their data sources (spec 3 §7 "Groups"). */
export default new Hono<Env>()
  .get('/', requireCaller, async (c) => c.json((await visibleGroups(c.get('deps'), c.var.principal)).map(groupJson)))
  .post('/', requireCaller, async (c) => c.json(groupJson(await createGroup(c.get('deps'), c.var.principal, await jsonBody(c.req)))))
  .get('/:id', requireCaller, async (c) => c.json(groupJson(await visibleGroup(c.get('deps'), c.var.principal, idParam(c.req.param('id'), NotFound)))))
  .post('/:id', requireCaller, async (c) => {
    const group = await renameRegularGroup(c.get('deps'), c.var.principal, idParam(c.req.param('id'), NotFound), await jsonBody(c.req))
    return c.json(groupJson(group))
  })
  .delete('/:id', requireCaller, async (c) => {
    await deleteRegularGroup(c.get('deps'), c.var.principal, idParam(c.req.param('id'), NotFound))
    return c.json(null)
  })
  .get('/:id/members', requireCaller, async (c) => {
    const { members } = await groupMembers(c.get('deps'), c.var.principal, idParam(c.req.param('id'), NotFound))
    return c.json(members)
  })
  .post('/:id/members', requireCaller, async (c) => {
    return c.json(await addMemberToGroup(c.get('deps'), c.var.principal, idParam(c.req.param('id'), NotFound), await jsonBody(c.req)))
  })
  .delete('/:id/members/:userId', requireCaller, async (c) => {
    await removeMemberFromGroup(c.get('deps'), c.var.principal, idParam(c.req.param('id'), NotFound), idParam(c.req.param('userId'), NotFound))
    return c.json(null)
  })
  .get('/:id/data_sources', requireCaller, async (c) => {
    const rows = await groupDataSources(c.get('deps'), c.var.principal, idParam(c.req.param('id'), NotFound))
    return c.json(rows.map((row) => dataSourceJson(row, getRunner(row.type), { admin: true, secretKey: c.get('deps').secretKey })))
  })
  .post('/:id/data_sources', requireCaller, async (c) => {
    const row = await addDataSourceToGroup(c.get('deps'), c.var.principal, idParam(c.req.param('id'), NotFound), await jsonBody(c.req))
    return c.json(dataSourceJson(row, getRunner(row.type), { admin: true, secretKey: c.get('deps').secretKey }))
  })
  .post('/:id/data_sources/:dsId', requireCaller, async (c) => {
    const row = await setGroupDataSourceViewOnly(c.get('deps'), c.var.principal, idParam(c.req.param('id'), NotFound),
      idParam(c.req.param('dsId'), NotFound), await jsonBody(c.req))
    return c.json(dataSourceJson(row, getRunner(row.type), { admin: true, secretKey: c.get('deps').secretKey }))
  })
  .delete('/:id/data_sources/:dsId', requireCaller, async (c) => {
    await removeDataSourceFromGroup(c.get('deps'), c.var.principal, idParam(c.req.param('id'), NotFound), idParam(c.req.param('dsId'), NotFound))
    return c.json(null)
  })
