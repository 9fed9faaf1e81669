import { lazy, Suspense, useEffect, useState, type JSX } from 'react'
import { island } from '../src/shared/island.tsx'
import { onSessionExpired, sessionRestored } from './lib/bus.ts'

// The dialog code loads only when a session actually expires.
const SessionExpiredDialog = lazy(() => import('./lib/SessionExpiredDialog.tsx'))

const POPUP_SIZE = 640 // spec 1 §4: a centred 640x640 login popup

function openLoginPopup() {
  const left = window.screenX + (window.outerWidth - POPUP_SIZE) / 2
  const top = window.screenY + (window.outerHeight - POPUP_SIZE) / 2
  window.open(`/login?next=${encodeURIComponent('/login/restored')}`, 'sightline-login',
    `width=${POPUP_SIZE},height=${POPUP_SIZE},left=${left},top=${top}`)
}

/** spec 1 §4 and §8: on a 401 the user signs in again in a popup, and the page carries on where it was. */
function SessionExpiredModal(): JSX.Element | null {
  const [open, setOpen] = useState(false)

  useEffect(() => {
    const stop = onSessionExpired(() => setOpen(true))
    const onMessage = (event: MessageEvent) => {
      if (event.origin !== window.location.origin || event.data?.type !== 'session-restored') return
      setOpen(false)
      sessionRestored()
    }
    window.addEventListener('message', onMessage)
    return () => {
      stop()
      window.removeEventListener('message', onMessage)
    }
  }, [])

  if (!open) return null
  return (
    <Suspense fallback={null}>
      <SessionExpiredDialog onLogin={openLoginPopup} />
    </Suspense>
  )
}

export default island('SessionExpiredModal', SessionExpiredModal)
