/**
 * The Add/Edit Parameter dialog's form as plain data: checking it (spec 2 §5) and turning it into the
 * definition stored in `query.options.parameters`.
 */
import { queryTexts } from '../../../src/shared/query-texts.ts'
import {
  defaultTitle,
  effectiveType,
  type MultiValuesOptions,
  type ParameterDefinition,
  type ParameterType,
} from '../../../src/shared/parameters/index.ts'

export type Quotation = 'none' | 'single' | 'double'

export const QUOTATIONS: readonly Quotation[] = ['none', 'single', 'double']

const QUOTE_MARK: Record<Quotation, string> = { none: '', single: "'", double: '"' }

/** What the dialog's fields hold. */
export interface ParameterDraft {
  name: string
  title: string
  type: ParameterType
  enumOptions: string
  queryId: number | null
  multiple: boolean
  quotation: Quotation
}

export type DraftErrors = Partial<Record<'name' | 'query', string>>

// A dot splits `{{ name.member }}`, and braces or line breaks end a placeholder (src/shared/parameters/parse.ts),
// so a keyword holding one could never be matched in the query text.
const UNUSABLE = /[.{}\r\n]/

/** The quotation a stored multi-value setting uses; prefix and suffix are the same mark when written here. */
export function quotationOf(options: MultiValuesOptions | null | undefined): Quotation {
  const mark = options?.prefix ?? ''
  return mark === "'" ? 'single' : mark === '"' ? 'double' : 'none'
}

/** Spec 2 §3, §9: items are joined with a comma, each wrapped in the chosen quotation mark. */
export function multiValuesOptionsFor(quotation: Quotation): MultiValuesOptions {
  const mark = QUOTE_MARK[quotation]
  return { prefix: mark, suffix: mark, separator: ',' }
}

/** The form for an existing definition, or for a new text parameter. */
export function draftFrom(def: ParameterDefinition | null): ParameterDraft {
  const options = def?.enumOptions
  return {
    name: def?.name ?? '',
    title: def?.title ?? '',
    type: effectiveType(def?.type ?? 'text'),
    enumOptions: typeof options === 'string' ? options : (options ?? []).join('\n'),
    queryId: def?.queryId == null || def.queryId === '' ? null : Number(def.queryId),
    multiple: def?.multiValuesOptions != null,
    quotation: quotationOf(def?.multiValuesOptions),
  }
}

/**
 * The problems of the form; empty when it can be saved. `takenNames` are the other parameters' keywords.
 *
 * @example
 * checkDraft({ ...draftFrom(null), name: 'a' }, ['a']).name // 'Parameter with this name already exists'
 */
export function checkDraft(draft: ParameterDraft, takenNames: readonly string[]): DraftErrors {
  const errors: DraftErrors = {}
  const name = draft.name.trim()
  if (name === '') errors.name = queryTexts.parameters.keywordRequired
  else if (UNUSABLE.test(name)) errors.name = queryTexts.parameters.keywordInvalid
  else if (takenNames.includes(name)) errors.name = queryTexts.parameters.keywordDuplicate
  if (draft.type === 'query' && draft.queryId === null) errors.query = queryTexts.parameters.queryRequired
  return errors
}

/**
 * The definition to store. A blank title is derived from the keyword; options that belong to other types
 * are left out; the default value survives only when the type did not change, since it may not fit a new one.
 */
export function definitionFrom(draft: ParameterDraft, original: ParameterDefinition | null): ParameterDefinition {
  const name = draft.name.trim()
  const listType = draft.type === 'enum' || draft.type === 'query'
  const keepValue = original !== null && effectiveType(original.type) === draft.type
  const def: ParameterDefinition = {
    ...(original ?? {}),
    name,
    title: draft.title.trim() || defaultTitle(name),
    type: draft.type,
    value: keepValue ? (original.value ?? null) : null,
    global: original?.global ?? false,
    multiValuesOptions: listType && draft.multiple ? multiValuesOptionsFor(draft.quotation) : null,
  }
  delete def.enumOptions
  delete def.queryId
  if (draft.type === 'enum') def.enumOptions = draft.enumOptions
  if (draft.type === 'query') def.queryId = draft.queryId
  return def
}
