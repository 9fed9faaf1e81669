/** The front door of src/snippets/: what the rest of Sightline may use of it (the structure test keeps it so). */

export type { SnippetJson } from './serialize.ts'
export { canCreateSnippets, canViewSnippets, createSnippet, deleteSnippet, getSnippet, listSnippets, saveSnippet, SNIPPET_ORDERS } from './service.ts'
export type { SnippetOrder } from './service.ts'
