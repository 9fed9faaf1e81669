import { z } from 'zod'
import type { Deps } from '../deps.ts'
import { BadRequest, NotFound } from '../errors.ts'
import { audited } from '../events/index.ts'
import { findGroup } from '../groups/index.ts'
import type { Principal } from '../permissions/index.ts'
import { requireAdmin } from '../permissions/index.ts'
import { validate } from '../validation/index.ts'
import { sourceChanged } from './cached.ts'
import * as dataSources from './store.ts'

/* Which data sources a group's members may use (spec 3 §2 "Groups", its Data Sources tab): kept with the data
 * sources, which sit above groups, so a group never reads the data sources' store. */

async function adminGroupAndSource(deps: Deps, principal: Principal, groupId: number, dataSourceId: number) {
  requireAdmin(principal)
  const group = await findGroup(deps.sql, principal.orgId, groupId)
  if (!group) throw new NotFound('Group not found.')
  const ds = await dataSources.findById(deps.sql, principal.orgId, dataSourceId)
  if (!ds) throw new NotFound('Data source not found.')
  return { group, ds }
}

export async function groupDataSources(deps: Deps, principal: Principal, groupId: number) {
  requireAdmin(principal)
  if (!(await findGroup(deps.sql, principal.orgId, groupId))) throw new NotFound()
  return dataSources.listForGroup(deps.sql, principal.orgId, groupId)
}

const AddBody = z.object({ data_source_id: z.coerce.number({ error: 'data_source_id is required.' }).int().positive() })
const ViewOnlyBody = z.object({ view_only: z.boolean({ error: 'view_only must be true or false.' }) })

export async function addDataSourceToGroup(deps: Deps, principal: Principal, groupId: number, body: unknown) {
  const { data_source_id } = validate(AddBody, body)
  const { ds } = await adminGroupAndSource(deps, principal, groupId, data_source_id)
  await audited(deps.sql, principal, { action: 'add_data_source', objectType: 'group', objectId: groupId, properties: { data_source_id: ds.id } }, (tx) =>
    dataSources.addToGroup(tx, ds.id, groupId, false))
  await sourceChanged(deps, ds.id)
  await deps.bus.invalidate('org', principal.orgId)
  return { ...ds, view_only: false }
}

export async function setGroupDataSourceViewOnly(deps: Deps, principal: Principal, groupId: number, dataSourceId: number, body: unknown) {
  const { view_only } = validate(ViewOnlyBody, body)
  const { ds } = await adminGroupAndSource(deps, principal, groupId, dataSourceId)
  const event = { action: 'change_data_source_permission', objectType: 'group', objectId: groupId, properties: { data_source_id: dataSourceId, view_only } }
  await audited(deps.sql, principal, event, async (tx) => {
    if (!(await dataSources.setGroupViewOnly(tx, dataSourceId, groupId, view_only))) throw new BadRequest('The data source is not in this group.')
  })
  await sourceChanged(deps, dataSourceId)
  return { ...ds, view_only }
}

export async function removeDataSourceFromGroup(deps: Deps, principal: Principal, groupId: number, dataSourceId: number) {
  await adminGroupAndSource(deps, principal, groupId, dataSourceId)
  await audited(deps.sql, principal, { action: 'remove_data_source', objectType: 'group', objectId: groupId, properties: { data_source_id: dataSourceId } }, (tx) =>
    dataSources.removeFromGroup(tx, dataSourceId, groupId))
  await sourceChanged(deps, dataSourceId)
}
