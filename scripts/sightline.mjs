#!/usr/bin/env node
// `npx sightline …` in the project folder: TypeScript is run through tsx, as every other script of the project is.
import { spawnSync } from 'node:child_process'
import fs from 'node:fs'
import path from 'node:path'

// npx runs this with whatever `node` is first on PATH, which may be older than the one `npm install` brought (the
// project's own, node_modules/.bin/node): then hand the command to that one, as npm start does.
const [major, minor] = process.versions.node.split('.').map(Number)
const projectNode = path.resolve(import.meta.dirname, '../node_modules/.bin/node')
if ((major < 22 || (major === 22 && minor < 18)) && fs.existsSync(projectNode)) {
  const child = spawnSync(projectNode, [import.meta.filename, ...process.argv.slice(2)], { stdio: 'inherit' })
  process.exit(child.status ?? 1)
}

const { register } = await import('tsx/esm/api')
register()
const { main } = await import('./sightline.ts')
process.exitCode = await main(process.argv.slice(2))
