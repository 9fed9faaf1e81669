import { createHash } from 'node:crypto'

/**
 * The cache key of query text (with the source id): the established tool's `gen_query_hash`, so "SELECT 1" and
 * "select  1 ;" differ only where they should. Block comments (annotations) and all whitespace are dropped, and a
 * trailing semicolon does not count; case is kept, because string literals are case-sensitive.
 * @example queryHash('SELECT 1;') === queryHash('/* note *\/ SELECT\n  1')
 */
export function queryHash(text: string): string {
  const normalised = text.replace(/\/\*.*?\*\//g, '').replace(/\s+/g, '').replace(/;+$/, '')
  return createHash('md5').update(normalised, 'utf8').digest('hex')
}
