/**
 * Text boxes are drawn with the one markdown configuration the page's edit-mode preview also uses, so what an editor
 * previews is what every viewer gets; its rules (no HTML, web addresses only) are described there.
 */
export { renderMarkdown } from '../shared/markdown.ts'
