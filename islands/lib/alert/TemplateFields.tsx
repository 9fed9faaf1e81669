import { lazy, Suspense, useEffect, useId, useState, type JSX } from 'react'
import { alertPageTexts as t } from '../../../src/shared/alert-page-texts.ts'
import { ui } from '../ui.ts'
import { previewTemplate, type PreviewInput, type Preview } from './preview.ts'
import { inlineInput } from './inline-input.ts'

const ConfirmDialog = lazy(() => import('../ConfirmDialog.tsx'))

const PREVIEW_DEBOUNCE_MS = 200

export interface TemplateState {
  custom: boolean
  subject: string
  body: string
}

/** Variables a template may use (reference §1.6), listed under the body as a reminder. */
const VARIABLES = ['ALERT_NAME', 'ALERT_URL', 'ALERT_STATUS', 'ALERT_CONDITION', 'ALERT_THRESHOLD', 'ALERT_SELECTOR',
  'QUERY_NAME', 'QUERY_URL', 'QUERY_RESULT_VALUE', 'QUERY_RESULT_ROWS', 'QUERY_RESULT_COLS', 'QUERY_RESULT_TABLE']

/**
 * Spec 2 §4 template mode: the default template, or a custom subject and body with a live preview rendered by the
 * server from the query's latest result (so it shows what a destination sends). Going back to the default asks
 * first and clears both fields.
 */
export function TemplateFields({ template, context, disabled, onChange }: {
  template: TemplateState
  /** What the preview renders against: the alert as the form holds it. */
  context: Omit<PreviewInput, 'custom_subject' | 'custom_body'> | null
  disabled: boolean
  onChange: (next: TemplateState) => void
}): JSX.Element {
  const id = useId()
  const [confirming, setConfirming] = useState(false)
  const [showPreview, setShowPreview] = useState(false)
  const [preview, setPreview] = useState<Preview | null>(null)
  const [previewError, setPreviewError] = useState<string | null>(null)
  const contextKey = JSON.stringify(context)

  useEffect(() => {
    if (!showPreview || !template.custom || !context) return
    let current = true
    const timer = setTimeout(() => {
      previewTemplate({ ...context, custom_subject: template.subject, custom_body: template.body })
        .then((p) => current && (setPreview(p), setPreviewError(null)), (e: Error) => current && setPreviewError(e.message || t.previewFailed))
    }, PREVIEW_DEBOUNCE_MS)
    return () => {
      current = false
      clearTimeout(timer)
    }
  }, [showPreview, template.custom, template.subject, template.body, contextKey])

  function setMode(custom: boolean) {
    if (custom) onChange({ ...template, custom: true })
    else if (template.subject || template.body) setConfirming(true)
    else onChange({ custom: false, subject: '', body: '' })
  }

  return (
    <fieldset className="flex flex-col gap-3" disabled={disabled}>
      <legend className="mb-2 text-sm font-semibold text-slate-900 dark:text-slate-100">{t.templateLabel}</legend>
      <label htmlFor={`${id}-mode`} className="sr-only">{t.templateLabel}</label>
      <select id={`${id}-mode`} value={template.custom ? 'custom' : 'default'} onChange={(e) => setMode(e.target.value === 'custom')}
        className={`${inlineInput} ${ui.inputBorder} w-auto self-start`}>
        <option value="default">{t.templateDefault}</option>
        <option value="custom">{t.templateCustom}</option>
      </select>
      {template.custom && (
        <div className="grid gap-4 lg:grid-cols-2">
          <div className="flex flex-col gap-3">
            <div>
              <label htmlFor={`${id}-subject`} className={ui.label}>{t.subject}</label>
              <input id={`${id}-subject`} type="text" value={template.subject} maxLength={1000} autoComplete="off"
                onChange={(e) => onChange({ ...template, subject: e.target.value })} className={`${ui.input} ${ui.inputBorder}`} />
            </div>
            <div>
              <label htmlFor={`${id}-body`} className={ui.label}>{t.body}</label>
              <textarea id={`${id}-body`} rows={8} value={template.body} maxLength={50_000} spellCheck={false}
                onChange={(e) => onChange({ ...template, body: e.target.value })} className={`${ui.input} ${ui.inputBorder} font-mono`} />
              <p className="mt-1 text-xs text-slate-500 dark:text-slate-400">
                {t.variables}: {VARIABLES.map((v) => <code key={v} className="mr-1">{`{{${v}}}`}</code>)}
              </p>
            </div>
            <label className="flex items-center gap-2 text-sm text-slate-700 dark:text-slate-300">
              <input type="checkbox" checked={showPreview} onChange={(e) => setShowPreview(e.target.checked)} className="h-4 w-4 accent-indigo-600" />
              {t.preview}
            </label>
          </div>
          {showPreview && (
            <section aria-label={t.previewSection} aria-live="polite" data-preview className={`${ui.card} flex min-w-0 flex-col gap-2 p-4 text-sm`}>
              {previewError ? <p className="text-red-700 dark:text-red-300">{previewError}</p>
                : !preview ? <p className="text-slate-500">{t.previewing}</p>
                : (
                  <>
                    {preview.error && <p className="text-amber-700 dark:text-amber-300">{preview.error}</p>}
                    <p className="font-semibold text-slate-900 dark:text-slate-100" data-preview-subject>{preview.subject}</p>
                    {/* the mail's HTML, in a frame that runs no script and reaches nothing of the page */}
                    <iframe sandbox="" srcDoc={preview.body} title={t.previewBody} data-preview-body
                      className="h-64 w-full rounded border border-slate-200 bg-white dark:border-slate-700" />
                  </>
                )}
            </section>
          )}
        </div>
      )}
      {confirming && (
        <Suspense fallback={null}>
          <ConfirmDialog title={t.discardTitle} body={t.discardBody} confirm={t.discard} busyLabel={t.discarding} cancel={t.cancel}
            onConfirm={async () => {
              onChange({ custom: false, subject: '', body: '' })
              setConfirming(false)
            }}
            onClose={() => setConfirming(false)} />
        </Suspense>
      )}
    </fieldset>
  )
}
