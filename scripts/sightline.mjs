#!/usr/bin/env node
// `npx sightline …` in the project folder: TypeScript is run through tsx, as every other script of the project is.
import { register } from 'tsx/esm/api'

register()
const { main } = await import('./sightline.ts')
process.exitCode = await main(process.argv.slice(2))
