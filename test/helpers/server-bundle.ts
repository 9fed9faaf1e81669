import crypto from 'node:crypto'
import fs from 'node:fs'
import path from 'node:path'
import { pathToFileURL } from 'node:url'
import * as esbuild from 'esbuild'

const ROOT = path.resolve(import.meta.dirname, '../..')
const OUT = path.join(ROOT, '.test-build')

/** What the server's code is made of: a bundle built from other contents is stale. */
function sourcesHash(): string {
  const hash = crypto.createHash('sha256')
  const walk = (dir: string) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1))) {
      const full = path.join(dir, entry.name)
      if (entry.isDirectory()) walk(full)
      else hash.update(path.relative(ROOT, full)).update('\0').update(fs.readFileSync(full)).update('\0')
    }
  }
  for (const dir of ['src', 'routes', 'islands', 'worker']) walk(path.join(ROOT, dir))
  for (const file of ['package-lock.json', 'tsconfig.json', 'test/helpers/server-bundle.ts']) hash.update(fs.readFileSync(path.join(ROOT, file)))
  return hash.digest('hex').slice(0, 16)
}

/**
 * Each module keeps its own `import.meta.url`: Sightline finds its migrations, package.json, maps and worker-thread
 * modules relative to the file that asks, wherever the bundle itself lies.
 */
const ownUrls: esbuild.Plugin = {
  name: 'own-import-meta-url',
  setup(build) {
    build.onLoad({ filter: /\.(ts|tsx)$/ }, async (args) => {
      if (args.path.includes(`${path.sep}node_modules${path.sep}`)) return undefined
      const source = await fs.promises.readFile(args.path, 'utf8')
      if (!source.includes('import.meta.url')) return undefined
      return { contents: source.replaceAll('import.meta.url', JSON.stringify(pathToFileURL(args.path).href)), loader: args.path.endsWith('x') ? 'tsx' : 'ts' }
    })
  },
}

async function build(): Promise<string> {
  const dir = path.join(OUT, sourcesHash())
  const main = path.join(dir, 'main.mjs')
  if (fs.existsSync(main)) return main
  // built beside, then renamed into place: workers building at once never see a half-written bundle
  const work = fs.mkdtempSync(path.join(OUT + '-'))
  try {
    await esbuild.build({
      absWorkingDir: ROOT,
      entryPoints: { main: 'src/main.ts' },
      outdir: work,
      outExtension: { '.js': '.mjs' },
      bundle: true,
      // src/main.ts imports the rest only once the Node check has passed; split, the bundle keeps that order
      splitting: true,
      format: 'esm',
      platform: 'node',
      target: 'node22',
      packages: 'external',
      jsx: 'automatic',
      logLevel: 'warning',
      plugins: [ownUrls],
    })
    fs.mkdirSync(OUT, { recursive: true })
    try {
      fs.renameSync(work, dir)
    } catch (error) {
      if (!fs.existsSync(main)) throw error // another worker put the same bundle in place first
    }
  } finally {
    fs.rmSync(work, { recursive: true, force: true })
  }
  for (const old of fs.readdirSync(OUT)) if (path.join(OUT, old) !== dir) fs.rmSync(path.join(OUT, old), { recursive: true, force: true })
  return main
}

let built: Promise<string> | undefined

/**
 * `src/main.ts` bundled into one ES module (its packages left to node_modules), for the tests that spawn Sightline's
 * processes: Node loads it in a fraction of the time tsx takes to compile hundreds of modules at every start. Built
 * once per change of the sources, in `.test-build/`.
 */
export function serverBundle(): Promise<string> {
  return (built ??= build())
}
