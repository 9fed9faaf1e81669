import { chromium, type Browser } from 'playwright-core'
import { inject } from 'vitest'
import { CHROMIUM } from './browser-setup.ts'

declare module 'vitest' {
  export interface ProvidedContext {
    /** The browser layer's Chromium (see browser-setup.ts), when the run started one. */
    browserEndpoint?: string
  }
}

/**
 * A connection to the run's Chromium when the browser layer started one, else a Chromium of the file's own.
 * Starting Chromium costs seconds of CPU; files open their own contexts on one shared Chromium instead of paying that
 * per file (and hand each context from test to test, put back as new: test/browser/page-pool.ts). Closing the
 * connection closes the contexts the file opened, not the shared Chromium.
 */
export function launchBrowser(): Promise<Browser> {
  const endpoint = inject('browserEndpoint')
  return endpoint ? chromium.connect(endpoint) : chromium.launch(CHROMIUM)
}
