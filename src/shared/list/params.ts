import { listTexts } from './texts.ts'

/**
 * The parameters every list takes (spec 2 §3, spec 3 §3 "List state"): page, page_size, order ('-' first for
 * descending), q and tags. The API checks them strictly and answers a bad one with the reference's 400 texts; a
 * page's address falls back to the defaults instead, so a hand-edited link still shows the list. Pure: the server,
 * its pages and the islands all read them here.
 */

/** The API's page size when none is asked for (reference §3.3), and the most one page may hold. */
export const API_PAGE_SIZE = 25
export const MAX_PAGE_SIZE = 250
/** Search text past this is cut: no list needs more, and it bounds what one search costs. */
export const MAX_SEARCH_LENGTH = 200

export interface ListOrder<C extends string = string> {
  column: C
  descending: boolean
}

/** A list's parameters once checked: what a service pages, orders and filters by. */
export interface ListQuery<C extends string = string> {
  page: number
  pageSize: number
  /** null: none asked for, or not one of the list's columns, so the list's own default applies. */
  order: ListOrder<C> | null
  /** The search text; '' for none. */
  q: string
  tags: string[]
}

/** A parameter that is absent or blank counts as not given, as the established tool reads `?page=`. */
const given = (raw: string | null | undefined): raw is string => raw !== undefined && raw !== null && raw !== ''

/** Search text and tags go to PostgreSQL, whose text cannot hold NUL: such characters match nothing, so they go. */
const withoutNul = (text: string) => text.replaceAll('\u0000', '')

/** `order`: one of the list's columns, '-' first for descending; anything else is no order (never an error). */
export function parseOrder<C extends string>(raw: string | null | undefined, columns: readonly C[]): ListOrder<C> | null {
  if (!raw) return null
  const descending = raw.startsWith('-')
  const column = (descending ? raw.slice(1) : raw) as C
  return columns.includes(column) ? { column, descending } : null
}

/** An order as the address and the API write it: 'name', '-created_at'. */
export const orderParam = (order: ListOrder): string => `${order.descending ? '-' : ''}${order.column}`

/** `q`: trimmed and cut to MAX_SEARCH_LENGTH; '' for none. */
export const searchText = (raw: string | null | undefined): string =>
  withoutNul(raw ?? '').trim().slice(0, MAX_SEARCH_LENGTH)

/** `tags` (repeated): trimmed, blanks dropped, each once, in the order given. */
export const tagList = (values: readonly string[]): string[] =>
  [...new Set(values.map((tag) => withoutNul(tag).trim()).filter(Boolean))]

/** The API's `page` and `page_size`, or the reference's message saying which is wrong. */
export function checkPaging(page: string | undefined, pageSize: string | undefined): { page: number; pageSize: number } | { error: string } {
  const pageNumber = given(page) ? Number(page) : 1
  if (!Number.isSafeInteger(pageNumber) || pageNumber < 1) return { error: listTexts.pagePositive }
  const size = given(pageSize) ? Number(pageSize) : API_PAGE_SIZE
  if (!Number.isInteger(size) || size < 1 || size > MAX_PAGE_SIZE) return { error: listTexts.pageSizeOutOfRange(MAX_PAGE_SIZE) }
  return { page: pageNumber, pageSize: size }
}

/** A page number from an address: a whole number from 1 up (fractions cut), else 1. */
export function addressPage(raw: string | null | undefined): number {
  const page = Math.trunc(Number(raw))
  return Number.isSafeInteger(page) && page > 1 ? page : 1
}

/** A page size from an address: one of the sizes the list offers, else its default. */
export function addressPageSize(raw: string | null | undefined, offered: readonly number[], fallback: number): number {
  const size = Number(raw)
  return given(raw) && offered.includes(size) ? size : fallback
}

/** Whether a page starts past the last row (an empty list has every page, empty, as the reference allows). */
export const isPastEnd = (count: number, page: number, pageSize: number): boolean => count > 0 && (page - 1) * pageSize >= count

export const lastPage = (count: number, pageSize: number): number => Math.max(1, Math.ceil(count / pageSize))

/** The page to show for an address: the one asked for, or the last one when the list has shrunk below it. */
export const clampPage = (page: number, count: number, pageSize: number): number =>
  isPastEnd(count, page, pageSize) ? lastPage(count, pageSize) : page
