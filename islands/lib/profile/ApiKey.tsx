import { lazy, Suspense, useRef, type JSX } from 'react'
import { texts } from '../../../src/shared/texts.ts'
import { api } from '../api.ts'
import { toast } from '../bus.ts'
import { ui } from '../ui.ts'
import { useModel } from '../use-model.ts'
import { copyApiKey, reduceApiKey, regenerateApiKey } from './model.ts'

const ConfirmDialog = lazy(() => import('../ConfirmDialog.tsx'))
const t = texts.profile

export function ApiKey({ userId, initial }: { userId: number; initial: string }): JSX.Element {
  const input = useRef<HTMLInputElement>(null)
  const [{ apiKey, confirming }, dispatch] = useModel(reduceApiKey, () => ({ apiKey: initial, confirming: false }), (command) => {
    if (command.kind === 'select') input.current?.select()
    else toast(command.message, command.level)
  })
  const id = 'api-key-value'

  return (
    <div className="flex flex-col gap-3">
      <label htmlFor={id} className="sr-only">{t.apiKey}</label>
      <input id={id} ref={input} type="text" readOnly value={apiKey} spellCheck={false} onFocus={(e) => e.target.select()}
        className={`${ui.input} ${ui.inputBorder} font-mono text-xs sm:text-sm`} />
      <div className="grid grid-cols-2 gap-3">
        <button type="button" className={ui.secondaryButton} onClick={async () => dispatch(await copyApiKey(navigator.clipboard, apiKey))}>{t.copy}</button>
        <button type="button" className={ui.dangerButton} onClick={() => void dispatch({ type: 'confirm' })}>{t.regenerate}</button>
      </div>
      {confirming && (
        <Suspense fallback={null}>
          <ConfirmDialog title={t.regenerateTitle} body={t.regenerateConfirm} confirm={t.regenerate} busyLabel={t.regenerating} cancel={t.cancel}
            onConfirm={async () => dispatch(await regenerateApiKey(api, userId))} onClose={() => void dispatch({ type: 'cancel' })} />
        </Suspense>
      )}
    </div>
  )
}
