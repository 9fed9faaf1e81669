/** Islands talk through window events, so none of them imports another. */
export type ToastKind = 'success' | 'error' | 'info' | 'warning'

export interface ToastDetail {
  message: string
  kind: ToastKind
}

const TOAST = 'sightline:toast'
const SESSION_EXPIRED = 'sightline:session-expired'
const SESSION_RESTORED = 'sightline:session-restored'

export function toast(message: string, kind: ToastKind = 'success') {
  window.dispatchEvent(new CustomEvent<ToastDetail>(TOAST, { detail: { message, kind } }))
}

export function onToast(handler: (detail: ToastDetail) => void): () => void {
  const listener = (e: Event) => handler((e as CustomEvent<ToastDetail>).detail)
  window.addEventListener(TOAST, listener)
  return () => window.removeEventListener(TOAST, listener)
}

let restored: Promise<void> | undefined
let resolveRestored: (() => void) | undefined

/** Ask the session-expired modal to show; resolves when the user has signed in again. */
export function sessionExpired(): Promise<void> {
  if (!restored) {
    restored = new Promise<void>((resolve) => (resolveRestored = resolve))
    window.dispatchEvent(new CustomEvent(SESSION_EXPIRED))
  }
  return restored
}

export function onSessionExpired(handler: () => void): () => void {
  window.addEventListener(SESSION_EXPIRED, handler)
  return () => window.removeEventListener(SESSION_EXPIRED, handler)
}

/** Called by the modal once the login popup reports `session-restored`: waiting requests are retried. */
export function sessionRestored() {
  resolveRestored?.()
  restored = undefined
  resolveRestored = undefined
  window.dispatchEvent(new CustomEvent(SESSION_RESTORED))
}
