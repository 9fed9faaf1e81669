/**
 * Writes routes/manifest.gen.ts (scripts/routes-manifest.ts), then builds the browser assets into dist/: the
 * stylesheet (Tailwind) and one script per island (esbuild), all with content-hashed names, plus dist/manifest.json
 * that the server reads to know which files a page needs.
 *
 * The assets are skipped when nothing it reads has changed since the last build (a hash of the sources' contents, kept in
 * dist/inputs.sha256), so `npm start` starts at once; `--force` builds anyway. A build is written in a folder of its
 * own and moved in file by file, the manifest last, so a server starting meanwhile sees one whole build or the other.
 */
import { execFileSync } from 'node:child_process'
import crypto from 'node:crypto'
import fs from 'node:fs'
import path from 'node:path'
import * as esbuild from 'esbuild'
import { writeRouteManifest } from './routes-manifest.ts'

const root = path.resolve(import.meta.dirname, '..')
const dist = path.join(root, 'dist')
const hashFile = path.join(dist, 'inputs.sha256')

/** Everything the build reads: the sources Tailwind scans and esbuild bundles, this script, the locked packages. */
function inputsHash(): string {
  const hash = crypto.createHash('sha256')
  const add = (file: string) => hash.update(path.relative(root, file)).update('\0').update(fs.readFileSync(file)).update('\0')
  const walk = (dir: string) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1))) {
      const full = path.join(dir, entry.name)
      if (entry.isDirectory()) walk(full)
      else add(full)
    }
  }
  for (const dir of ['islands', 'src', 'routes']) walk(path.join(root, dir))
  for (const file of ['scripts/build.ts', 'package-lock.json']) add(path.join(root, file))
  return hash.digest('hex')
}

// the route table first: it is a source the server imports, written whether or not the assets are up to date
if (writeRouteManifest()) console.log('wrote routes/manifest.gen.ts')

const inputs = inputsHash()
const fresh = fs.existsSync(path.join(dist, 'manifest.json')) && fs.existsSync(hashFile) && fs.readFileSync(hashFile, 'utf8') === inputs
if (fresh && !process.argv.includes('--force')) {
  console.log('assets up to date')
  process.exit(0)
}

const startedAt = Date.now()
fs.mkdirSync(dist, { recursive: true })
const work = fs.mkdtempSync(path.join(dist, '.build-'))
// a failed build leaves dist/ as it was
process.on('exit', () => fs.rmSync(work, { recursive: true, force: true }))
const staticDir = path.join(work, 'static')
fs.mkdirSync(staticDir, { recursive: true })
fs.cpSync(path.join(root, 'src/ui/static'), staticDir, { recursive: true })

const url = (file: string) => '/' + path.relative(work, path.join(root, file)).split(path.sep).join('/')
type IslandManifest = Record<string, { file: string; imports: string[]; export?: string }>

/**
 * Zod's namespace carries all of its forty-odd message locales (some 260 KB minified) into every page that draws a
 * chart, which reads its options through zod. Sightline's pages speak English, so the islands get English alone.
 */
const englishZod: esbuild.Plugin = {
  name: 'english-zod',
  setup(build) {
    build.onResolve({ filter: /^\.\.\/locales\/index\.js$/ }, (args) =>
      (args.importer.includes(`${path.sep}node_modules${path.sep}zod${path.sep}`)
        ? { path: 'english', namespace: 'english-zod', pluginData: path.resolve(args.resolveDir, '../locales/en.js') }
        : undefined))
    build.onLoad({ filter: /.*/, namespace: 'english-zod' }, (args) => ({
      contents: `export { default as en } from ${JSON.stringify(args.pluginData)}`, loader: 'js', resolveDir: root,
    }))
  },
}

/** How every island script is built: ES modules, shared code split into chunks, minified. */
const islandBuildOptions = {
  absWorkingDir: root,
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
  plugins: [englishZod],
} satisfies esbuild.BuildOptions

/** The chunks an output imports statically, and theirs in turn: what its page preloads. */
function staticImports(outputs: esbuild.Metafile['outputs'], file: string, seen = new Set<string>()): string[] {
  for (const imp of outputs[file]?.imports ?? []) {
    if (imp.kind === 'import-statement' && !seen.has(imp.path)) {
      seen.add(imp.path)
      staticImports(outputs, imp.path, seen)
    }
  }
  return [...seen]
}

/**
 * One island build: every named island an entry beside the boot script, shared code split into common chunks, and
 * for each island its file and the chunks it imports statically (preloaded by the page).
 */
async function buildIslands(names: string[], outDir: string): Promise<{ boot: string; islands: IslandManifest }> {
  const result = await esbuild.build({
    ...islandBuildOptions,
    entryPoints: ['islands/boot.ts', ...names.map((name) => `islands/${name}.tsx`)],
    outdir: path.join(staticDir, outDir),
  })
  const outputs = result.metafile.outputs
  const entryOutput = (entry: string) => {
    const file = Object.keys(outputs).find((f) => outputs[f].entryPoint === entry)
    if (!file) throw new Error(`no output for ${entry}`)
    return file
  }
  const islands: IslandManifest = {}
  for (const name of names) {
    const out = entryOutput(`islands/${name}.tsx`)
    islands[name] = { file: url(out), imports: staticImports(outputs, out).map(url) }
  }
  return { boot: url(entryOutput('islands/boot.ts')), islands }
}

// Islands: every islands/*.tsx is an entry.
const islandNames = fs.readdirSync(path.join(root, 'islands')).filter((f) => /^[A-Z]\w*\.tsx$/.test(f)).map((f) => f.replace(/\.tsx$/, ''))
const app = await buildIslands(islandNames, 'islands')

// Public pages (a shared dashboard, opened by strangers on any device) hydrate their few islands with Preact's
// React-compatible runtime: the same components, without React DOM's 60 KB (decision 0021). The boot code and the
// islands are one script: every scripted public page has charts (DashboardWidget), the parameters and filters panels
// add little to it, and one file paints sooner on a cold cache than a dozen small chunks; what a page opens later
// (the expanded view, the parameter inputs) is still loaded when it is used.
const PUBLIC_ISLANDS = ['DashboardWidget', 'DashboardParameters', 'DashboardFilters']
const PUBLIC_ENTRY = 'public-islands'
const publicEntry: esbuild.Plugin = {
  name: PUBLIC_ENTRY,
  setup(build) {
    build.onResolve({ filter: new RegExp(`^${PUBLIC_ENTRY}$`) }, () => ({ path: PUBLIC_ENTRY, namespace: PUBLIC_ENTRY }))
    build.onLoad({ filter: /.*/, namespace: PUBLIC_ENTRY }, () => ({
      resolveDir: root,
      loader: 'ts',
      contents: [`export { boot } from './islands/boot.ts'`, ...PUBLIC_ISLANDS.map((name) => `export { default as ${name} } from './islands/${name}.tsx'`)].join('\n'),
    }))
  },
}
async function buildPublicIslands(): Promise<{ boot: string; islands: IslandManifest }> {
  const result = await esbuild.build({
    ...islandBuildOptions,
    entryPoints: { public: PUBLIC_ENTRY },
    outdir: path.join(staticDir, 'public-islands'),
    alias: { react: 'preact/compat', 'react-dom': 'preact/compat' },
    plugins: [englishZod, publicEntry],
  })
  const outputs = result.metafile.outputs
  const file = Object.keys(outputs).find((f) => outputs[f].entryPoint === `${PUBLIC_ENTRY}:${PUBLIC_ENTRY}`)
  if (!file) throw new Error('no output for the public islands')
  const imports = staticImports(outputs, file).map(url)
  return { boot: url(file), islands: Object.fromEntries(PUBLIC_ISLANDS.map((name) => [name, { file: url(file), imports, export: name }])) }
}
const publicApp = await buildPublicIslands()

// Stylesheet: Tailwind scans routes/, islands/ and src/ for the classes in use.
const tmpCss = path.join(work, 'app.css')
execFileSync(path.join(root, 'node_modules/.bin/tailwindcss'), ['-i', 'src/ui/styles.css', '-o', tmpCss, '--minify'], {
  cwd: root, stdio: ['ignore', 'ignore', 'pipe'],
})
const css = fs.readFileSync(tmpCss)
const cssName = `app-${crypto.createHash('sha256').update(css).digest('base64url').replace(/[^A-Za-z0-9]/g, '').slice(0, 8).toUpperCase()}.css`
fs.renameSync(tmpCss, path.join(staticDir, cssName))

const manifest = {
  css: `/static/${cssName}`, boot: app.boot, islands: app.islands,
  public: publicApp,
}

// Into dist/: the new files beside the old (their names differ by their hashes), then the manifest in one rename,
// then the old files this build no longer has (not those of a build that ran alongside, which are newer than its start).
const built = new Set<string>()
const move = (from: string, to: string) => {
  for (const entry of fs.readdirSync(from, { withFileTypes: true })) {
    const source = path.join(from, entry.name)
    const target = path.join(to, entry.name)
    if (entry.isDirectory()) {
      fs.mkdirSync(target, { recursive: true })
      move(source, target)
    } else {
      fs.renameSync(source, target)
      built.add(target)
    }
  }
}
fs.mkdirSync(path.join(dist, 'static'), { recursive: true })
move(staticDir, path.join(dist, 'static'))
fs.writeFileSync(path.join(work, 'manifest.json'), JSON.stringify(manifest, null, 2))
fs.renameSync(path.join(work, 'manifest.json'), path.join(dist, 'manifest.json'))
const prune = (dir: string) => {
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name)
    if (entry.isDirectory()) prune(full)
    else if (!built.has(full) && fs.statSync(full).mtimeMs < startedAt) fs.rmSync(full)
  }
}
prune(path.join(dist, 'static'))
fs.rmSync(work, { recursive: true, force: true })
fs.writeFileSync(hashFile, inputs)
console.log(`built ${islandNames.length} islands and ${cssName}`)
