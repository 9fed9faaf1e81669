/**
 * Builds the browser assets into dist/: the stylesheet (Tailwind) and one script per island (esbuild), all with
 * content-hashed names, plus dist/manifest.json that the server reads to know which files a page needs.
 */
import { execFileSync } from 'node:child_process'
import crypto from 'node:crypto'
import fs from 'node:fs'
import path from 'node:path'
import * as esbuild from 'esbuild'

const root = path.resolve(import.meta.dirname, '..')
const dist = path.join(root, 'dist')
const staticDir = path.join(dist, 'static')

fs.rmSync(dist, { recursive: true, force: true })
fs.mkdirSync(staticDir, { recursive: true })
fs.cpSync(path.join(root, 'src/ui/static'), staticDir, { recursive: true })

// Islands: every islands/*.tsx is an entry; shared code (React) is split into common chunks.
const islandFiles = fs.readdirSync(path.join(root, 'islands')).filter((f) => /^[A-Z]\w*\.tsx$/.test(f))
const result = await esbuild.build({
  absWorkingDir: root,
  entryPoints: ['islands/boot.ts', ...islandFiles.map((f) => `islands/${f}`)],
  outdir: path.join(staticDir, 'islands'),
  entryNames: '[name]-[hash]',
  chunkNames: 'chunks/[name]-[hash]',
  bundle: true,
  splitting: true,
  format: 'esm',
  minify: true,
  metafile: true,
  target: ['es2022'],
  jsx: 'automatic',
  define: { 'process.env.NODE_ENV': '"production"' },
  legalComments: 'none',
  logLevel: 'warning',
})

const url = (file: string) => '/' + path.relative(dist, path.join(root, file)).split(path.sep).join('/')
const outputs = result.metafile.outputs
const staticImports = (file: string, seen = new Set<string>()): string[] => {
  for (const imp of outputs[file]?.imports ?? []) {
    if (imp.kind === 'import-statement' && !seen.has(imp.path)) {
      seen.add(imp.path)
      staticImports(imp.path, seen)
    }
  }
  return [...seen]
}
const entryOutput = (entry: string) => {
  const file = Object.keys(outputs).find((f) => outputs[f].entryPoint === entry)
  if (!file) throw new Error(`no output for ${entry}`)
  return file
}

const islands: Record<string, { file: string; imports: string[] }> = {}
for (const f of islandFiles) {
  const out = entryOutput(`islands/${f}`)
  islands[f.replace(/\.tsx$/, '')] = { file: url(out), imports: staticImports(out).map(url) }
}

// Stylesheet: Tailwind scans routes/, islands/ and src/ for the classes in use.
const tmpCss = path.join(dist, 'app.css')
execFileSync(path.join(root, 'node_modules/.bin/tailwindcss'), ['-i', 'src/ui/styles.css', '-o', tmpCss, '--minify'], {
  cwd: root, stdio: ['ignore', 'ignore', 'pipe'],
})
const css = fs.readFileSync(tmpCss)
const cssName = `app-${crypto.createHash('sha256').update(css).digest('base64url').replace(/[^A-Za-z0-9]/g, '').slice(0, 8).toUpperCase()}.css`
fs.renameSync(tmpCss, path.join(staticDir, cssName))

const manifest = { css: `/static/${cssName}`, boot: url(entryOutput('islands/boot.ts')), islands }
fs.writeFileSync(path.join(dist, 'manifest.json'), JSON.stringify(manifest, null, 2))
console.log(`built ${islandFiles.length} islands and ${cssName}`)
