import fs from 'node:fs'
import path from 'node:path'
import { gzipSync } from 'node:zlib'

/**
 * An island's script and the shared chunks it imports; `export` names the island's component when the script holds
 * more than one (else it is the default export).
 */
export interface IslandAsset {
  file: string
  imports: string[]
  export?: string
}

/** What `npm run build` wrote: the stylesheet and, per island, its script and the shared chunks it imports. */
export interface AssetManifest {
  css: string
  boot: string
  islands: Record<string, IslandAsset>
  /**
   * Public pages' islands, on Preact's React-compatible runtime (scripts/build.ts; decision 0021): one script with the
   * boot code and every public island, so a stranger's browser fetches a few files rather than a dozen small ones.
   */
  public?: { boot: string; islands: Record<string, IslandAsset> }
}

interface StaticFile {
  body: Uint8Array
  gzip: Uint8Array | undefined
  type: string
  immutable: boolean
}

export interface Assets {
  manifest: AssetManifest
  files: Map<string, StaticFile>
}

const TYPES: Record<string, string> = {
  '.js': 'text/javascript; charset=utf-8', '.css': 'text/css; charset=utf-8', '.svg': 'image/svg+xml',
  '.png': 'image/png', '.ico': 'image/x-icon', '.json': 'application/json', '.html': 'text/html; charset=utf-8',
  '.txt': 'text/plain; charset=utf-8', '.woff2': 'font/woff2', '.map': 'application/json',
}

/** Built assets are small: read them all once at start and serve from memory, gzipped ahead of time. */
export function loadAssets(distDir: string): Assets {
  const manifestFile = path.join(distDir, 'manifest.json')
  if (!fs.existsSync(manifestFile)) throw new Error(`No built assets in ${distDir}: run \`npm run build\` first.`)
  const manifest = JSON.parse(fs.readFileSync(manifestFile, 'utf8')) as AssetManifest
  const files = new Map<string, StaticFile>()
  const root = path.join(distDir, 'static')
  const walk = (dir: string) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name)
      if (entry.isDirectory()) walk(full)
      else {
        const body = fs.readFileSync(full)
        const type = TYPES[path.extname(entry.name)] ?? 'application/octet-stream'
        const compressible = /text|javascript|json|svg/.test(type)
        files.set('/static/' + path.relative(root, full).split(path.sep).join('/'), {
          body, type, gzip: compressible ? gzipSync(body, { level: 9 }) : undefined,
          immutable: /-[A-Z0-9]{8}\.\w+$/.test(entry.name),
        })
      }
    }
  }
  if (fs.existsSync(root)) walk(root)
  return { manifest, files }
}
