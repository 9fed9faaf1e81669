import { limitHeapGrowth } from './heap-growth.ts'
import { requireSupportedNode } from './node-version.ts'

/**
 * Process entry for `npm start`, `npm run web`, `npm run worker` and `deno task start`. The Node check comes before
 * anything else is even loaded (imports are hoisted, so the rest is imported only once it has passed): an older Node
 * would crash in a native addon instead of saying why.
 */
requireSupportedNode()
limitHeapGrowth()
await import('./lifecycle.ts')
