import v8 from 'node:v8'

/**
 * How far V8 lets the old generation grow past what was live at the last full collection before it collects again,
 * in percent. V8's own rule grows it up to four times when collections are cheap, which a server that streams large
 * answers pays for in memory: `GET api/alerts` at 10,000 alerts (20 MB, written a batch at a time) took the process
 * from 320 to 620 MB, all of it garbage promoted batch by batch and pooled until a full collection found it, and more
 * with every alert. Half again caps that at the same +30 MB as 1,000 alerts, for a full collection (about 13 ms on
 * a 100 MB heap) every 50 MB promoted (bench/lists-growth.ts, bench/README.md).
 */
export const HEAP_GROWING_PERCENT = 50

/**
 * Sets the growth above for this process, unless its command line chose one (`node --heap-growing-percent=N`; 0 is
 * V8's own rule). V8 reads the flag at each full collection, so setting it at start-up is enough. Deno keeps its own.
 */
export function limitHeapGrowth(execArgv: string[] = process.execArgv): void {
  if (process.versions.deno || execArgv.some((arg) => /^--heap[-_]growing[-_]percent\b/.test(arg))) return
  v8.setFlagsFromString(`--heap-growing-percent=${HEAP_GROWING_PERCENT}`)
}
