import type { Context } from 'hono'
import type { ReactNode } from 'react'
import { renderToString } from 'react-dom/server'
import { IslandCollector, IslandContext } from '../shared/island.tsx'
import { texts } from '../shared/texts.ts'
import type { Env } from './env.ts'
import type { AssetManifest } from '../assets/index.ts'
import { contentSecurityPolicy } from './middleware/security-headers.ts'
import { randomToken, sha256 } from '../credentials/index.ts'

const escapeHtml = (s: string) =>
  s.replace(/[&<>"']/g, (ch) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[ch]!)

/** One module script that loads only the islands this page rendered; nothing when it rendered none. */
export function bootScript(manifest: AssetManifest, names: Set<string>, nonce?: string): { head: string; body: string; code: string } {
  if (!names.size) return { head: '', body: '', code: '' }
  const islands = [...names].map((name) => {
    const entry = manifest.islands[name]
    if (!entry) throw new Error(`Island ${name} is not in the asset manifest: run \`npm run build\`.`)
    return { name, ...entry }
  })
  const preloads = new Set<string>([manifest.boot, ...islands.flatMap((i) => [i.file, ...i.imports])])
  const head = [...preloads].map((href) => `<link rel="modulepreload" href="${href}">`).join('')
  const imports = islands.map((i, n) => `import ${i.export ? `{${i.export} as i${n}}` : `i${n}`} from ${JSON.stringify(i.file)};`).join('')
  const map = islands.map((i, n) => `${JSON.stringify(i.name)}:i${n}`).join(',')
  const code = `import{boot}from${JSON.stringify(manifest.boot)};${imports}boot({${map}});`
  const body = `<script type="module"${nonce ? ` nonce="${nonce}"` : ''}>${code}</script>`
  return { head, body, code }
}

export interface PageOptions {
  title?: string
  status?: number
  /** Body classes, e.g. for pages without the app shell. */
  bodyClass?: string
  /**
   * How the policy admits the page's one inline script: a fresh nonce (the default), or its hash, for pages whose
   * copies caches keep and revalidate (public dashboards): the same page then has the same policy every time.
   */
  inlineScript?: 'nonce' | 'hash'
}

/** Render a React tree to a full HTML document on the server. */
export function renderDocument(manifest: AssetManifest, node: ReactNode, options: PageOptions = {}): { html: string; nonce?: string; scriptHash?: string } {
  const collector = new IslandCollector((element, identifierPrefix) => renderToString(element, { identifierPrefix }))
  const body = renderToString(<IslandContext.Provider value={collector}>{node}</IslandContext.Provider>)
  // The one inline script a page may have carries a fresh nonce, so the policy needs no 'unsafe-inline'.
  const nonce = collector.names.size && options.inlineScript !== 'hash' ? randomToken(16) : undefined
  const scripts = bootScript(manifest, collector.names, nonce)
  const scriptHash = scripts.code && options.inlineScript === 'hash' ? `sha256-${sha256(scripts.code).toString('base64')}` : undefined
  const title = options.title ? `${options.title} | ${texts.product}` : texts.product
  const html = (
    '<!doctype html><html lang="en"><head><meta charset="utf-8">' +
    '<meta name="viewport" content="width=device-width, initial-scale=1">' +
    '<meta name="color-scheme" content="light dark">' +
    `<title>${escapeHtml(title)}</title>` +
    `<link rel="icon" href="/static/favicon.svg" type="image/svg+xml">` +
    `<link rel="stylesheet" href="${manifest.css}">${scripts.head}</head>` +
    `<body class="${escapeHtml(options.bodyClass ?? '')}">${body}${scripts.body}</body></html>`
  )
  return { html, nonce, scriptHash }
}

export function renderPage<E extends Env>(c: Context<E>, node: ReactNode, options: PageOptions = {}): Response {
  const { html, nonce } = renderDocument(c.get('deps').assets.manifest, node, options)
  if (nonce) c.header('Content-Security-Policy', contentSecurityPolicy(nonce))
  return c.html(html, (options.status ?? 200) as 200)
}
