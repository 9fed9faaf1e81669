import * as Dialog from '@radix-ui/react-dialog'
import { useState, type JSX } from 'react'
import { texts } from '../../src/shared/texts.ts'

/** The modal itself; it cannot be dismissed, since nothing on the page works until the user is back. */
export default function SessionExpiredDialog({ onLogin }: { onLogin: () => void }): JSX.Element {
  // what had the focus when the session ran out gets it back once the user is signed in again
  const [previous] = useState(() => document.activeElement as HTMLElement | null)
  return (
    <Dialog.Root open>
      <Dialog.Portal>
        <Dialog.Overlay className="fixed inset-0 z-50 bg-slate-900/60" />
        <Dialog.Content
          onEscapeKeyDown={(e) => e.preventDefault()}
          onPointerDownOutside={(e) => e.preventDefault()}
          onCloseAutoFocus={(e) => {
            e.preventDefault()
            if (previous?.isConnected) previous.focus()
          }}
          className="fixed top-1/2 left-1/2 z-50 w-[28rem] max-w-[calc(100vw-2rem)] -translate-x-1/2 -translate-y-1/2 rounded-lg bg-white p-6 shadow-xl dark:bg-slate-800">
          <Dialog.Title className="text-base font-semibold text-slate-900 dark:text-slate-100">{texts.errors.sessionExpired}</Dialog.Title>
          <Dialog.Description className="sr-only">{texts.errors.sessionExpired}</Dialog.Description>
          <div className="mt-6 flex justify-end">
            <button type="button" onClick={onLogin}
              className="rounded-md bg-indigo-600 px-4 py-2 text-sm font-medium text-white hover:bg-indigo-500 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-600">
              {texts.errors.login}
            </button>
          </div>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  )
}
