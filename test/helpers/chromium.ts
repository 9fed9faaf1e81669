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
 * Starting Chromium costs seconds of CPU; files opening their own contexts on one shared Chromium keep each test as
 * isolated as before (a context has its own cookies, storage, cache and renderer) without paying that per file.
 * Closing the connection closes the contexts the file opened, not the shared Chromium.
 */
export function launchBrowser(): Promise<Browser> {
  const endpoint = inject('browserEndpoint')
  return endpoint ? chromium.connect(endpoint) : chromium.launch(CHROMIUM)
}
