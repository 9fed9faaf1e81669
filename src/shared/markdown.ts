import MarkdownIt from 'markdown-it'

/**
 * Text boxes are markdown written by any editor of a dashboard and read by everyone who opens it, public viewers
 * included: HTML in the text is shown as text, never as markup (no script, no event handler can get in), and links
 * and images may only point to web addresses (markdown-it refuses `javascript:`, `vbscript:`, `file:` and `data:`
 * links, and Sightline also refuses relative ones that would act on Sightline itself).
 */
const markdown = new MarkdownIt({ html: false, linkify: true, breaks: true })

const WEB_ADDRESS = /^(https?:|mailto:)/i
const defaultValidate = markdown.validateLink.bind(markdown)
markdown.validateLink = (url: string) => defaultValidate(url) && WEB_ADDRESS.test(url.trim())

const defaultLinkOpen = markdown.renderer.rules.link_open ?? ((tokens, idx, options, _env, self) => self.renderToken(tokens, idx, options))
// links leave the dashboard in a new tab and tell the other site nothing about where the reader came from
markdown.renderer.rules.link_open = (tokens, idx, options, env, self) => {
  tokens[idx].attrSet('target', '_blank')
  tokens[idx].attrSet('rel', 'noopener noreferrer nofollow')
  return defaultLinkOpen(tokens, idx, options, env, self)
}
const defaultImage = markdown.renderer.rules.image!
markdown.renderer.rules.image = (tokens, idx, options, env, self) => {
  tokens[idx].attrSet('loading', 'lazy')
  tokens[idx].attrSet('referrerpolicy', 'no-referrer')
  return defaultImage(tokens, idx, options, env, self)
}

/** A text box's markdown as safe HTML. */
export function renderMarkdown(text: string): string {
  return markdown.render(text)
}
