import { useEffect } from 'react'
import { texts } from '../../../src/shared/texts.ts'

/**
 * While there are unsaved changes, leaving the page asks first (spec 2 §2). Browsers show their own wording for
 * beforeunload; the spec's text is set as the return value for those that still use it.
 */
export function useUnsavedGuard(dirty: boolean) {
  useEffect(() => {
    if (!dirty) return
    const warn = (event: BeforeUnloadEvent) => {
      event.preventDefault()
      event.returnValue = texts.editor.leaveWarning
      return texts.editor.leaveWarning
    }
    window.addEventListener('beforeunload', warn)
    return () => window.removeEventListener('beforeunload', warn)
  }, [dirty])
}
