import * as Dialog from '@radix-ui/react-dialog'
import { useEffect, useState, type JSX } from 'react'
import { texts } from '../../src/shared/texts.ts'
import { DialogContent } from './DialogContent.tsx'

const LOAD_TIMEOUT_MS = 20_000 // spec 1 §9: help iframe timeout

/** The drawer: 400 px wide, the help page in a frame, and a way out when it does not load. */
export default function HelpPanel({ href, opener, onClose }: { href: string; opener?: HTMLElement; onClose: () => void }): JSX.Element {
  const [state, setState] = useState<'loading' | 'ready' | 'error'>('loading')

  useEffect(() => {
    setState('loading')
    const timer = setTimeout(() => setState((s) => (s === 'loading' ? 'error' : s)), LOAD_TIMEOUT_MS)
    return () => clearTimeout(timer)
  }, [href])

  const src = href + (href.includes('?') ? '&' : '?') + 'embed=1'
  return (
    <Dialog.Root open onOpenChange={(open) => !open && onClose()}>
      <Dialog.Portal>
        <Dialog.Overlay className="fixed inset-0 z-40 bg-slate-900/30" />
        <DialogContent data-state-help={state}
          // there is no Dialog.Trigger: give the focus back to what opened the drawer
          onCloseAutoFocus={(event) => {
            event.preventDefault()
            opener?.focus()
          }}
          className="fixed top-0 right-0 z-40 flex h-full w-[400px] max-w-full flex-col bg-white shadow-2xl dark:bg-slate-900">
          <div className="flex items-center justify-between border-b border-slate-200 px-4 py-3 dark:border-slate-700">
            <Dialog.Title className="text-sm font-semibold text-slate-900 dark:text-slate-100">{texts.help.title}</Dialog.Title>
            <Dialog.Description className="sr-only">{texts.help.title}</Dialog.Description>
            <Dialog.Close aria-label={texts.help.close}
              className="rounded p-1 text-slate-500 hover:bg-slate-100 hover:text-slate-800 focus-visible:outline-2 focus-visible:outline-indigo-500 dark:text-slate-400 dark:hover:bg-slate-800 dark:hover:text-slate-100">
              <svg viewBox="0 0 24 24" className="h-5 w-5" fill="none" stroke="currentColor" strokeWidth={2} strokeLinecap="round" aria-hidden="true">
                <path d="M6 6l12 12M18 6L6 18" />
              </svg>
            </Dialog.Close>
          </div>
          {state === 'error' ? (
            <div className="p-6 text-sm text-slate-700 dark:text-slate-200" role="alert">
              <p>{texts.help.failed}</p>
              <p className="mt-2">
                <a href={href} target="_blank" rel="noreferrer" className="font-medium text-indigo-600 underline dark:text-indigo-400">{texts.help.clickHere}</a>{' '}
                {texts.help.openInTab}
              </p>
            </div>
          ) : (
            <>
              {state === 'loading' && <p className="p-4 text-sm text-slate-500 dark:text-slate-400">{texts.help.loading}</p>}
              <iframe title={texts.help.title} src={src} onLoad={() => setState('ready')}
                className={state === 'ready' ? 'h-full w-full flex-1 border-0' : 'h-0 w-0 border-0'} />
            </>
          )}
        </DialogContent>
      </Dialog.Portal>
    </Dialog.Root>
  )
}
