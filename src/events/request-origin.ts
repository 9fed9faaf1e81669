import { AsyncLocalStorage } from 'node:async_hooks'

/** Where the request being served comes from: the address and browser every audit event it records carries. */
export interface RequestOrigin {
  ip?: string
  userAgent?: string
}

const origins = new AsyncLocalStorage<RequestOrigin>()

/** Run `fn` (the rest of a request) so that the events it records note where the request came from. */
export function withRequestOrigin<T>(origin: RequestOrigin, fn: () => T): T {
  return origins.run(origin, fn)
}

/** The current request's origin; undefined outside a request (worker tasks, the command line). */
export function currentRequestOrigin(): RequestOrigin | undefined {
  return origins.getStore()
}
