#!/usr/bin/env node
// `npx sightline <command>` in a Sightline checkout (or `npm run sightline -- <command>`): the server's command line.
// The TypeScript sources run through tsx, as `npm start` runs them.
import { register } from 'tsx/esm/api'

register()
await import('../src/cli.ts')
