import { useEffect, useState, type JSX } from 'react'
import { island } from '../src/shared/island.tsx'
import { onSessionExpired, sessionRestored } from './lib/bus.ts'

type Dialog = typeof import('./lib/SessionExpiredDialog.tsx').default

// The dialog code loads only when a session actually expires (imported directly rather than through React.lazy,
// whose suspended render would hold the modal back a further 300 ms).
const loadDialog = () => import('./lib/SessionExpiredDialog.tsx').then((m) => m.default)

const POPUP_SIZE = 640 // spec 1 §4: a centred 640x640 login popup

function openLoginPopup() {
  const left = window.screenX + (window.outerWidth - POPUP_SIZE) / 2
  const top = window.screenY + (window.outerHeight - POPUP_SIZE) / 2
  window.open(`/login?next=${encodeURIComponent('/login/restored')}`, 'sightline-login',
    `width=${POPUP_SIZE},height=${POPUP_SIZE},left=${left},top=${top}`)
}

/** spec 1 §4 and §8: on a 401 the user signs in again in a popup, and the page carries on where it was. */
function SessionExpiredModal(): JSX.Element | null {
  const [dialog, setDialog] = useState<{ Dialog: Dialog } | null>(null)

  useEffect(() => {
    let active = true
    const stop = onSessionExpired(() => {
      loadDialog().then(
        (Dialog) => active && setDialog({ Dialog }),
        // without the dialog there is no way back in place: sign in on the login page instead
        () => active && window.location.assign(`/login?next=${encodeURIComponent(location.pathname + location.search)}`),
      )
    })
    const onMessage = (event: MessageEvent) => {
      if (event.origin !== window.location.origin || event.data?.type !== 'session-restored') return
      setDialog(null)
      sessionRestored()
    }
    window.addEventListener('message', onMessage)
    return () => {
      active = false
      stop()
      window.removeEventListener('message', onMessage)
    }
  }, [])

  if (!dialog) return null
  return <dialog.Dialog onLogin={openLoginPopup} />
}

export default island('SessionExpiredModal', SessionExpiredModal)
