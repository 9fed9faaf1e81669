/**
 * A group's data sources as a pure model (spec 3 §2): the members, sorted by name, each with its access level; the
 * Add Data Sources dialog, whose picks are added one request at a time; a changed access level shown at once and put
 * back when the server refuses; Remove. Rows wait for their request (busy) so one row never has two under way.
 * Side effects are commands (a request, a toast) the island carries out; the requests are async functions given the
 * `api` to call, each answering with the event that follows. Tested without React.
 */
import { texts } from '../../../src/shared/texts.ts'
import { only, type Step } from '../use-model.ts'

const t = texts.groups

export type Api = <T = unknown>(method: string, path: string, body?: unknown) => Promise<T>

export interface Source { id: number; name: string; type: string }
export interface Member extends Source { view_only: boolean }

export interface GroupSourcesState {
  groupId: number
  members: Member[]
  all: Source[]
  adding: boolean
  /** Ids still to add, in the order picked: the first is the one under way. */
  queue: number[]
  /** Rows with a request under way. */
  busy: number[]
}

export const byName = (a: Source, b: Source) => a.name.localeCompare(b.name, undefined, { sensitivity: 'base' }) || a.id - b.id

export const initialGroupSources = (groupId: number, sources: Member[], all: Source[]): GroupSourcesState =>
  ({ groupId, members: [...sources].sort(byName), all, adding: false, queue: [], busy: [] })

/** The data sources the Add dialog offers: those not in the group yet. */
export function candidates(state: GroupSourcesState): Source[] {
  const inGroup = new Set(state.members.map((m) => m.id))
  return state.all.filter((s) => !inGroup.has(s.id)).sort(byName)
}

export type GroupSourcesEvent =
  | { type: 'openAdd' }
  | { type: 'closeAdd' }
  | { type: 'add'; ids: number[] }
  | { type: 'added'; member: Member }
  /** The server refused an add; `reason` is its own words, '' when it gave none. */
  | { type: 'addFailed'; reason: string }
  | { type: 'setAccess'; id: number; viewOnly: boolean }
  | { type: 'accessSaved'; id: number }
  | { type: 'accessFailed'; id: number; viewOnly: boolean }
  | { type: 'remove'; id: number }
  | { type: 'removed'; id: number }
  | { type: 'removeFailed'; id: number }

export type GroupSourcesCommand =
  | { kind: 'add'; groupId: number; id: number }
  | { kind: 'setAccess'; groupId: number; id: number; viewOnly: boolean; before: boolean }
  | { kind: 'remove'; groupId: number; id: number }
  | { kind: 'toast'; message: string }

const withoutBusy = (state: GroupSourcesState, id: number) => state.busy.filter((b) => b !== id)

function nextAdd(state: GroupSourcesState, queue: number[]): Step<GroupSourcesState, GroupSourcesCommand> {
  // the dialog closes once every pick is in
  if (queue.length === 0) return only({ ...state, queue, adding: false })
  return { state: { ...state, queue }, commands: [{ kind: 'add', groupId: state.groupId, id: queue[0] }] }
}

export function reduceGroupSources(state: GroupSourcesState, event: GroupSourcesEvent): Step<GroupSourcesState, GroupSourcesCommand> {
  switch (event.type) {
    case 'openAdd':
      return only({ ...state, adding: true })
    case 'closeAdd':
      return only({ ...state, adding: false })
    case 'add':
      return state.queue.length ? only(state) : nextAdd(state, event.ids)
    case 'added': {
      const { id, name, type, view_only } = event.member
      const members = [...state.members.filter((m) => m.id !== id), { id, name, type, view_only }].sort(byName)
      return nextAdd({ ...state, members }, state.queue.slice(1))
    }
    case 'addFailed':
      // the rest of the picks are dropped; the dialog stays open to try again
      return { state: { ...state, queue: [] }, commands: [{ kind: 'toast', message: event.reason || t.failedAdd }] }
    case 'setAccess': {
      const member = state.members.find((m) => m.id === event.id)
      if (!member || state.busy.includes(event.id)) return only(state)
      const members = state.members.map((m) => (m.id === event.id ? { ...m, view_only: event.viewOnly } : m))
      return {
        state: { ...state, members, busy: [...state.busy, event.id] },
        commands: [{ kind: 'setAccess', groupId: state.groupId, id: event.id, viewOnly: event.viewOnly, before: member.view_only }],
      }
    }
    case 'accessSaved':
      return only({ ...state, busy: withoutBusy(state, event.id) })
    case 'accessFailed': {
      const members = state.members.map((m) => (m.id === event.id ? { ...m, view_only: event.viewOnly } : m))
      return { state: { ...state, members, busy: withoutBusy(state, event.id) }, commands: [{ kind: 'toast', message: t.failedPermissions }] }
    }
    case 'remove':
      if (state.busy.includes(event.id)) return only(state)
      return { state: { ...state, busy: [...state.busy, event.id] }, commands: [{ kind: 'remove', groupId: state.groupId, id: event.id }] }
    case 'removed':
      return only({ ...state, members: state.members.filter((m) => m.id !== event.id), busy: withoutBusy(state, event.id) })
    case 'removeFailed':
      return { state: { ...state, busy: withoutBusy(state, event.id) }, commands: [{ kind: 'toast', message: t.failedRemove }] }
  }
}

const memberPath = (groupId: number, id: number) => `/api/groups/${groupId}/data_sources/${id}`

export async function addSource(call: Api, groupId: number, id: number, reasonOf: (error: unknown) => string): Promise<GroupSourcesEvent> {
  try {
    return { type: 'added', member: await call<Member>('POST', `/api/groups/${groupId}/data_sources`, { data_source_id: id }) }
  } catch (error) {
    return { type: 'addFailed', reason: reasonOf(error) }
  }
}

export async function saveAccess(call: Api, command: Extract<GroupSourcesCommand, { kind: 'setAccess' }>): Promise<GroupSourcesEvent> {
  try {
    await call('POST', memberPath(command.groupId, command.id), { view_only: command.viewOnly })
    return { type: 'accessSaved', id: command.id }
  } catch {
    return { type: 'accessFailed', id: command.id, viewOnly: command.before }
  }
}

export async function removeSource(call: Api, groupId: number, id: number): Promise<GroupSourcesEvent> {
  try {
    await call('DELETE', memberPath(groupId, id))
    return { type: 'removed', id }
  } catch {
    return { type: 'removeFailed', id }
  }
}
