import fs from 'node:fs'
import { log } from './log.ts'

/*
 * The first thing a Sightline process does: refuse to run on a Node older than package.json's `engines.node`. Native
 * addons built for the Node that `npm install` brought crash an older one outright (a SIGSEGV on the first SQLite
 * schema refresh, with no log line), and a process manager runs whatever `node` is first on its PATH. So this module
 * imports nothing that loads native code, and src/main.ts loads the rest only once it has passed.
 */

/** The command a process manager should run: the Node that `npm install` brought, whatever else is on PATH. */
export const PROCESS_MANAGER_COMMAND = 'node_modules/.bin/node --import tsx src/main.ts'

type Version = [number, number, number]

function parse(version: string): Version | undefined {
  const m = /^v?(\d+)(?:\.(\d+))?(?:\.(\d+))?/.exec(version.trim())
  return m ? [Number(m[1]), Number(m[2] ?? 0), Number(m[3] ?? 0)] : undefined
}

function older(a: Version, b: Version): boolean {
  for (let i = 0; i < 3; i++) if (a[i] !== b[i]) return a[i] < b[i]
  return false
}

/**
 * Why this Node cannot run Sightline, or undefined when it can. `required` is an `engines.node` range of the form
 * `>=22.18` (the only form Sightline uses; any other is a mistake in package.json and throws).
 */
export function nodeVersionProblem(actual: string, required: string, execPath: string): string | undefined {
  const m = /^>=\s*(\d+(?:\.\d+){0,2})$/.exec(required.trim())
  const minimum = m && parse(m[1])
  if (!minimum) throw new Error(`package.json engines.node must read ">=MAJOR.MINOR", not "${required}"`)
  const current = parse(actual)
  if (current && !older(current, minimum)) return undefined
  return `Sightline needs Node.js ${m[1]} or newer (package.json engines.node "${required}"), but ${execPath} is Node.js ` +
    `${actual.replace(/^v/, '')}. Run it with the Node that npm install brought: ${PROCESS_MANAGER_COMMAND} ` +
    '(npm start, npm run web and npm run worker use it already).'
}

function requiredNode(): string {
  const manifest = JSON.parse(fs.readFileSync(new URL('../package.json', import.meta.url), 'utf8'))
  return manifest.engines.node
}

/** Exits with status 1 and a log line naming the required version when this Node is too old. Deno has its own. */
export function requireSupportedNode(versions: NodeJS.ProcessVersions = process.versions, execPath = process.execPath) {
  if (versions.deno) return
  const problem = nodeVersionProblem(versions.node, requiredNode(), execPath)
  if (!problem) return
  log.error(problem, { node: versions.node, required: requiredNode() })
  process.exit(1)
}
