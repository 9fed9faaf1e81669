import { z } from 'zod'
import type { Deps } from '../deps.ts'
import { Conflict, NotFound } from '../errors.ts'
import { audited } from '../events/index.ts'
import { LIMITS, tooLong, validate } from '../validation/index.ts'
import { requireRight, snippetPolicy, snippetRefusals } from '../permissions/index.ts'
import type { Principal } from '../permissions/index.ts'
import type { ListOrder } from '../shared/list/params.ts'
import { usersByIds } from '../users/index.ts'
import { snippetJson, type SnippetJson } from './serialize.ts'
import * as store from './store.ts'
import { SNIPPET_ORDERS, type SnippetOrder, type SnippetRow } from './store.ts'

export { SNIPPET_ORDERS, type SnippetOrder }

/** Spec 2 §9: snippets are listed by trigger unless told otherwise. */
export const SNIPPET_DEFAULT_ORDER: ListOrder<SnippetOrder> = { column: 'trigger', descending: false }

export const MAX_TRIGGER_LENGTH = 255 // the column's limit (reference §5 query_snippets.trigger varchar(255))

/** What the API answers about snippets; the dialog shows these messages as they are. */
export const snippetTexts = {
  triggerRequired: 'Trigger: This field is required.',
  triggerText: 'Trigger must be text.',
  triggerTooLong: `Trigger: Must be at most ${MAX_TRIGGER_LENGTH} characters.`,
  snippetRequired: 'Snippet: This field is required.',
  snippetText: 'Snippet must be text.',
  snippetTooLong: tooLong('Snippet', LIMITS.queryText),
  descriptionText: 'Description must be text.',
  descriptionTooLong: tooLong('Description', LIMITS.description),
  triggerTaken: 'A snippet with this trigger already exists.',
  cannotEdit: snippetRefusals.cannotEdit,
}

/** Missing and wrongly typed fields get different messages: "required" would mislead a client sending a number. */
const text = (required: string, wrongType: string) =>
  z.string({ error: (issue) => (issue.input === undefined || issue.input === null ? required : wrongType) })

const trigger = text(snippetTexts.triggerRequired, snippetTexts.triggerText)
  .trim().min(1, snippetTexts.triggerRequired).max(MAX_TRIGGER_LENGTH, snippetTexts.triggerTooLong)
// kept as typed (leading blank lines and indentation may be part of the snippet), but it must say something;
// it is pasted into query text, so it is bounded like query text
const snippet = text(snippetTexts.snippetRequired, snippetTexts.snippetText).max(LIMITS.queryText, snippetTexts.snippetTooLong)
  .refine((value) => value.trim() !== '', snippetTexts.snippetRequired)
const description = z.string({ error: snippetTexts.descriptionText }).max(LIMITS.description, snippetTexts.descriptionTooLong)
  .nullish().transform((value) => value ?? '')

// Other fields (id, user, dates) are ignored rather than refused: clients of the established tool send the whole object back.
const CreateBody = z.object({ trigger, description, snippet })
const SaveBody = z.object({ trigger: trigger.optional(), description: description.optional(), snippet: snippet.optional() })

/** Reading snippets goes with reading or writing queries (spec 2 §6: they are a query-writing aid). */
export const canViewSnippets = (principal: Principal): boolean => snippetPolicy(principal).view === true

export const canCreateSnippets = (principal: Principal): boolean => snippetPolicy(principal).create === true

/** Spec 2 §6: only the author or an admin edits or deletes; everyone else gets the read-only dialog. */
export const canEditSnippet = (principal: Principal, row: { user_id: number | null }): boolean => snippetPolicy(principal, row).edit === true

const requireView = (principal: Principal) => requireRight(snippetPolicy(principal).view)

const requireEdit = (principal: Principal, row: SnippetRow) => requireRight(snippetPolicy(principal, row).edit)

async function withAuthors(deps: Deps, principal: Principal, rows: SnippetRow[]): Promise<SnippetJson[]> {
  const users = await usersByIds(deps.sql, principal.orgId, rows.map((r) => r.user_id))
  return rows.map((row) => snippetJson(row, users))
}

/**
 * The organization's snippets in the order asked (by trigger when none is), with the total: a page of them, the
 * last one when asked past the end, or every one when `paging` is null.
 */
export async function listSnippets(
  deps: Deps, principal: Principal, o: { order: ListOrder<SnippetOrder> | null; paging: { page: number; pageSize: number } | null },
): Promise<{ count: number; page: number; results: SnippetJson[] }> {
  requireView(principal)
  const filter = { orgId: principal.orgId, order: o.order ?? SNIPPET_DEFAULT_ORDER }
  const { count, page, rows } = await store.listSnippets(deps.sql, filter, o.paging, { pastEnd: 'last' })
  return { count, page, results: await withAuthors(deps, principal, rows) }
}

async function findOrNotFound(deps: Deps, principal: Principal, id: number): Promise<SnippetRow> {
  requireView(principal)
  const row = await store.findSnippet(deps.sql, principal.orgId, id)
  if (!row) throw new NotFound()
  return row
}

export async function getSnippet(deps: Deps, principal: Principal, id: number): Promise<SnippetJson> {
  const [json] = await withAuthors(deps, principal, [await findOrNotFound(deps, principal, id)])
  return json
}

/** Triggers are unique per organization; the database decides, so two people saving at once cannot both win. */
async function uniqueTrigger<T>(write: () => Promise<T>): Promise<T> {
  try {
    return await write()
  } catch (error) {
    if ((error as { code?: string }).code === '23505') throw new Conflict(snippetTexts.triggerTaken)
    throw error
  }
}

export async function createSnippet(deps: Deps, principal: Principal, body: unknown): Promise<SnippetJson> {
  requireRight(snippetPolicy(principal).create)
  const input = validate(CreateBody, body)
  const event = (created: store.SnippetRow) => ({ action: 'create', objectType: 'query_snippet', objectId: created.id })
  const row = await uniqueTrigger(() => audited<store.SnippetRow>(deps.sql, principal, event, (tx) =>
    store.insertSnippet(tx, { orgId: principal.orgId, userId: principal.id, ...input })))
  const [json] = await withAuthors(deps, principal, [row])
  return json
}

export async function saveSnippet(deps: Deps, principal: Principal, id: number, body: unknown): Promise<SnippetJson> {
  const existing = await findOrNotFound(deps, principal, id)
  requireEdit(principal, existing)
  const input = validate(SaveBody, body)
  const event = { action: 'edit', objectType: 'query_snippet', objectId: id, properties: { updated_fields: Object.keys(input) } }
  const row = await uniqueTrigger(() => audited(deps.sql, principal, event, (tx) => store.updateSnippet(tx, id, input)))
  const [json] = await withAuthors(deps, principal, [row])
  return json
}

export async function deleteSnippet(deps: Deps, principal: Principal, id: number) {
  const existing = await findOrNotFound(deps, principal, id)
  requireEdit(principal, existing)
  await audited(deps.sql, principal, { action: 'delete', objectType: 'query_snippet', objectId: id }, (tx) => store.deleteSnippet(tx, id))
}
