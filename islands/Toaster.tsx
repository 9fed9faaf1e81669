import { useEffect, useState, type JSX } from 'react'
import { island } from '../src/shared/island.tsx'
import { texts } from '../src/shared/texts.ts'
import { onToast, type ToastDetail } from './lib/bus.ts'

const TOAST_MS = 3000 // spec 1 §9: notifications show bottom right for 3 s

const tone: Record<ToastDetail['kind'], string> = {
  success: 'border-emerald-500',
  error: 'border-red-500',
  warning: 'border-amber-500',
  info: 'border-indigo-500',
}

/** Toasts bottom right, and the offline notice that stays until the connection returns. */
function Toaster(): JSX.Element {
  const [toasts, setToasts] = useState<(ToastDetail & { id: number })[]>([])
  const [offline, setOffline] = useState(false)

  useEffect(() => {
    let next = 0
    const stop = onToast((detail) => {
      const id = ++next
      // one message once: the same words again (a run failing the same way twice) take the place of the copy on
      // screen, with a fresh 3 s, instead of stacking under it
      setToasts((list) => [...list.filter((t) => t.message !== detail.message || t.kind !== detail.kind), { ...detail, id }])
      if (!detail.persistent) setTimeout(() => setToasts((list) => list.filter((t) => t.id !== id)), TOAST_MS)
    })
    const update = () => setOffline(!navigator.onLine)
    update()
    window.addEventListener('online', update)
    window.addEventListener('offline', update)
    return () => {
      stop()
      window.removeEventListener('online', update)
      window.removeEventListener('offline', update)
    }
  }, [])

  return (
    <div className="pointer-events-none fixed right-4 bottom-4 z-[60] flex w-80 max-w-[calc(100vw-2rem)] flex-col gap-2" role="status" aria-live="polite">
      {offline && (
        <div className="pointer-events-auto rounded-md border-l-4 border-amber-500 bg-white px-4 py-3 text-sm text-slate-800 shadow-lg dark:bg-slate-800 dark:text-slate-100">
          {texts.errors.offline}
        </div>
      )}
      {toasts.map((t) => (
        <div key={t.id} data-toast={t.kind}
          className={`pointer-events-auto flex items-start gap-3 rounded-md border-l-4 bg-white px-4 py-3 text-sm text-slate-800 shadow-lg dark:bg-slate-800 dark:text-slate-100 ${tone[t.kind]}`}>
          <span className="flex-1">{t.message}{t.description && <span className="mt-0.5 block text-slate-600 dark:text-slate-300">{t.description}</span>}</span>
          <button type="button" aria-label={texts.toast.close}
            className="-m-1 rounded p-1 text-slate-500 hover:text-slate-800 focus-visible:outline-2 focus-visible:outline-indigo-500 dark:text-slate-400 dark:hover:text-slate-100"
            onClick={() => setToasts((list) => list.filter((x) => x.id !== t.id))}>
            <svg viewBox="0 0 24 24" className="h-4 w-4" fill="none" stroke="currentColor" strokeWidth={2} strokeLinecap="round" aria-hidden="true">
              <path d="M6 6l12 12M18 6L6 18" />
            </svg>
          </button>
        </div>
      ))}
    </div>
  )
}

export default island('Toaster', Toaster)
