/**
 * Writes routes/manifest.gen.ts: every route file under routes/, imported by name and mounted at the address its
 * path gives. Explicit static imports, so Node, Deno and a bundle agree and nothing scans the file system at start;
 * the written file is checked in, and test/unit/routes-manifest.test.ts fails when it differs from what this would
 * write now. Run by `npm run build` (scripts/build.ts), or alone: `node --import tsx scripts/routes-manifest.ts`.
 *
 * From a file to its address:
 * - A page file serves its path: `routes/users/pending.tsx` → `/users/pending`, `index` is its folder
 *   (`routes/index.tsx` → `/`), `[name]` is one segment named `name` (`routes/queries/[id]/source.tsx` →
 *   `/queries/:id{[0-9]+}/source`). The handlers inside are declared at `/`, relative to that address.
 * - A `[name]` segment takes what PARAM_PATTERNS says for its name: `id` and any name ending in `id` (`sid`, `vid`)
 *   is a number, `address` a dashboard's number and optional `-slug`; any other name is one whole segment.
 * - An API file mounts at its resource, the first name under routes/api/: `routes/api/alerts.ts` → `/api/alerts`.
 *   A resource too large for one file keeps more of its addresses in a folder of its name, mounted at the resource
 *   as well (`routes/api/queries/executions.ts` → `/api/queries`, its handlers at `/:id{[0-9]+}/results` …), after
 *   the resource's own file. The API's ids are checked by its handlers after the caller is, so the resource alone
 *   is the mount.
 * - Files and folders whose name starts with `_` are not routes: pieces several pages share (`queries/_list.tsx`). The one
 *   exception is routes/_aliases.tsx, mounted at `/` after every other file: the addresses kept for old links and
 *   for the established tool's clients, declared whole in that one file.
 */
import fs from 'node:fs'
import path from 'node:path'
import { pathToFileURL } from 'node:url'

const ROOT = path.resolve(import.meta.dirname, '..')
export const MANIFEST_FILE = 'routes/manifest.gen.ts'
const ALIASES = '_aliases.tsx'

/** What a `[name]` segment matches, by name (a name not here matches any one segment). */
const PARAM_PATTERNS: [test: RegExp, pattern: string][] = [
  [/id$/i, '[0-9]+'],
  [/^address$/, '[0-9]+(?:-[^/]*)?'],
]

const isRouteFile = (name: string) => /\.tsx?$/.test(name) && !/\.test\.tsx?$/.test(name) && !name.startsWith('_')

/** Every route file under routes/, as paths relative to it with `/` separators. */
function routeFiles(dir = path.join(ROOT, 'routes'), prefix = ''): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    if (entry.name.startsWith('_')) return []
    const rel = prefix + entry.name
    if (entry.isDirectory()) return routeFiles(path.join(dir, entry.name), rel + '/')
    return isRouteFile(entry.name) && rel !== 'manifest.gen.ts' ? [rel] : []
  })
}

/** The file's path as segments, extension dropped and a last `index` dropped (it is its folder). */
function segmentsOf(file: string): string[] {
  const segments = file.replace(/\.tsx?$/, '').split('/')
  return segments.at(-1) === 'index' ? segments.slice(0, -1) : segments
}

const paramName = (segment: string) => /^\[([A-Za-z_][A-Za-z0-9_]*)\]$/.exec(segment)?.[1]

function addressSegment(segment: string): string {
  const name = paramName(segment)
  if (!name) return segment
  const pattern = PARAM_PATTERNS.find(([test]) => test.test(name))?.[1]
  return pattern ? `:${name}{${pattern}}` : `:${name}`
}

/** The address a route file's path gives (see the rules above). */
export function addressOf(file: string): string {
  const segments = segmentsOf(file)
  if (segments[0] === 'api') return '/' + segments.slice(0, 2).join('/')
  return '/' + segments.map(addressSegment).join('/')
}

/**
 * The mount order. Hono tries routes in the order they were registered, so where two addresses could both match
 * (`/users/me` and `/users/:id`, `/queries/new` and `/queries/:id`) the named one must come first. Files are ordered
 * by their path segments, compared one level at a time: a named segment before a `[param]` one, named ones by
 * code point, and a file before anything inside the folder of the same name (the resource's own file before its
 * folder). The order depends on the paths alone, so every machine writes the same file.
 */
export function compareRouteFiles(a: string, b: string): number {
  const sa = segmentsOf(a)
  const sb = segmentsOf(b)
  for (let i = 0; i < Math.min(sa.length, sb.length); i++) {
    const pa = paramName(sa[i]) ? 1 : 0
    const pb = paramName(sb[i]) ? 1 : 0
    if (pa !== pb) return pa - pb
    if (sa[i] !== sb[i]) return sa[i] < sb[i] ? -1 : 1
  }
  return sa.length - sb.length || (a < b ? -1 : a > b ? 1 : 0)
}

/** A readable import name for a file: `queries/[id]/source.tsx` → `queries_$id_source`. */
function importName(file: string): string {
  const name = file.replace(/\.tsx?$/, '').replace(/\[([^\]]+)\]/g, '$$$1').replace(/[^A-Za-z0-9$]+/g, '_')
  return /^[0-9]/.test(name) ? '_' + name : name
}

/** The text of routes/manifest.gen.ts for the route files now under routes/. */
export function routeManifest(files: string[] = routeFiles()): string {
  const ordered = [...files].sort(compareRouteFiles)
  const names = new Map<string, string>()
  const pages = new Map<string, string>()
  for (const file of ordered) {
    const address = addressOf(file)
    // an API resource may span files; a page address is one file (`users.tsx` and `users/index.tsx` would both be /users)
    if (!file.startsWith('api/') && pages.has(address)) throw new Error(`routes/${file} and routes/${pages.get(address)} both serve ${address}`)
    pages.set(address, file)
    const name = importName(file)
    if ([...names.values()].includes(name)) throw new Error(`routes/${file}: its import name ${name} is taken; rename the file`)
    names.set(file, name)
  }
  const lines = [
    '// Written by scripts/routes-manifest.ts from the files under routes/ (`npm run build`): do not edit by hand.',
    "import type { Hono } from 'hono'",
    "import type { Env } from '../src/http/index.ts'",
    ...ordered.map((file) => `import ${names.get(file)} from './${file}'`),
    `import aliases from './${ALIASES}'`,
    '',
    '/** Every route file and where it is mounted, in the order Hono must try them (scripts/routes-manifest.ts). */',
    'export const routes: [mountPath: string, app: Hono<Env>][] = [',
    ...ordered.map((file) => `  ['${addressOf(file)}', ${names.get(file)}],`),
    "  ['/', aliases],",
    ']',
    '',
  ]
  return lines.join('\n')
}

/** Writes the manifest when it changed; true when it did. */
export function writeRouteManifest(): boolean {
  const target = path.join(ROOT, MANIFEST_FILE)
  const text = routeManifest()
  if (fs.existsSync(target) && fs.readFileSync(target, 'utf8') === text) return false
  fs.writeFileSync(target, text)
  return true
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  console.log(writeRouteManifest() ? `wrote ${MANIFEST_FILE}` : `${MANIFEST_FILE} up to date`)
}
