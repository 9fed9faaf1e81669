import { useEffect } from 'react'
import { queryTexts } from '../../../src/shared/query-texts.ts'

/**
 * While there are unsaved changes, leaving the page asks first (spec 2 §2). Browsers show their own wording for
 * beforeunload; the spec's text is set as the return value for those that still use it.
 */
export function useUnsavedGuard(dirty: boolean) {
  useEffect(() => {
    if (!dirty) return
    const warn = (event: BeforeUnloadEvent) => {
      event.preventDefault()
      event.returnValue = queryTexts.editor.leaveWarning
      return queryTexts.editor.leaveWarning
    }
    window.addEventListener('beforeunload', warn)
    return () => window.removeEventListener('beforeunload', warn)
  }, [dirty])
}
