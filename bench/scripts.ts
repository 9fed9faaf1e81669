/**
 * How much JavaScript a page makes the browser download: the module scripts its HTML names (inline
 * `<script type="module">` imports, `<script src>`, and `<link rel="modulepreload">`), fetched gzipped and counted
 * as they come off the wire. Chunks that islands import lazily (`import()`) load on demand and are not counted.
 */
import fs from 'node:fs'
import http from 'node:http'
import path from 'node:path'
import { gunzipSync } from 'node:zlib'
import { HOST, ROOT } from './server.ts'

interface RawResponse {
  status: number
  headers: http.IncomingHttpHeaders
  /** Bytes as received, i.e. still compressed when content-encoding says so. */
  body: Buffer
}

/** GET without any decoding (fetch would gunzip and hide the wire size). */
function get(port: number, urlPath: string, headers: Record<string, string>): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const req = http.get({ host: HOST, port, path: urlPath, headers, timeout: 10_000 }, (res) => {
      const chunks: Buffer[] = []
      res.on('data', (chunk: Buffer) => chunks.push(chunk))
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }))
      res.on('error', reject)
    })
    req.on('timeout', () => req.destroy(new Error(`GET ${urlPath} timed out`)))
    req.on('error', reject)
  })
}

/** Every script URL the HTML makes the browser load up front, in document order, without duplicates. */
export function scriptUrls(html: string): string[] {
  const urls = new Set<string>()
  const attr = (tag: string, name: string) => new RegExp(`\\b${name}\\s*=\\s*("([^"]*)"|'([^']*)'|([^\\s>]+))`, 'i').exec(tag)
  for (const [tag] of html.matchAll(/<link\b[^>]*>/gi)) {
    const rel = attr(tag, 'rel')
    const href = attr(tag, 'href')
    if (rel && /\bmodulepreload\b/i.test(rel[2] ?? rel[3] ?? rel[4]) && href) urls.add(href[2] ?? href[3] ?? href[4])
  }
  for (const [, attrs, code] of html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/gi)) {
    const src = attr(attrs, 'src')
    if (src) urls.add(src[2] ?? src[3] ?? src[4])
    else if (/\btype\s*=\s*["']?module/i.test(attrs)) {
      // static imports of an inline module: `import x from "…"`, `import{a}from"…"`, `import "…"`
      for (const m of code.matchAll(/\bimport\s*(?:[\w*${}\s,]+?\s*from\s*)?["']([^"']+)["']/g)) urls.add(m[1])
    }
  }
  return [...urls]
}

export interface ScriptSize {
  url: string
  gzipBytes: number
  rawBytes: number
  gzipped: boolean
}

export interface PageScripts {
  page: string
  status: number
  /** The HTML document as sent (gzipped when the server compressed it). */
  htmlWireBytes: number
  scripts: ScriptSize[]
  totalGzipBytes: number
  totalRawBytes: number
}

export async function pageScripts(port: number, page: string, cookie?: string): Promise<PageScripts> {
  const base: Record<string, string> = { 'accept-encoding': 'gzip', accept: 'text/html' }
  if (cookie) base.cookie = cookie
  const res = await get(port, page, base)
  if (res.status !== 200) throw new Error(`GET ${page} answered ${res.status}`)
  const gz = res.headers['content-encoding'] === 'gzip'
  const html = (gz ? gunzipSync(res.body) : res.body).toString('utf8')
  const scripts: ScriptSize[] = []
  for (const url of scriptUrls(html)) {
    if (!url.startsWith('/')) throw new Error(`${page} loads a script from another origin: ${url}`)
    const r = await get(port, url, { 'accept-encoding': 'gzip' })
    if (r.status !== 200) throw new Error(`GET ${url} (from ${page}) answered ${r.status}`)
    const gzipped = r.headers['content-encoding'] === 'gzip'
    scripts.push({ url, gzipBytes: r.body.length, rawBytes: gzipped ? gunzipSync(r.body).length : r.body.length, gzipped })
  }
  return {
    page, status: res.status, htmlWireBytes: res.body.length, scripts,
    totalGzipBytes: scripts.reduce((s, x) => s + x.gzipBytes, 0),
    totalRawBytes: scripts.reduce((s, x) => s + x.rawBytes, 0),
  }
}

/** Built scripts in dist/ that `pages` did not load: other islands' code and lazily imported chunks. */
export function builtScriptsNotLoaded(pages: PageScripts[]): string[] {
  const loaded = new Set(pages.flatMap((p) => p.scripts.map((s) => s.url)))
  const dist = path.join(ROOT, 'dist')
  const out: string[] = []
  const walk = (dir: string) => {
    if (!fs.existsSync(dir)) return
    for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, e.name)
      if (e.isDirectory()) walk(full)
      else if (e.name.endsWith('.js')) {
        const url = '/' + path.relative(dist, full).split(path.sep).join('/')
        if (!loaded.has(url)) out.push(url)
      }
    }
  }
  walk(path.join(dist, 'static'))
  return out.sort()
}
