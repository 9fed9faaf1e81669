import * as Dialog from '@radix-ui/react-dialog'
import { useId, useState, type FormEvent, type JSX, type ReactNode } from 'react'
import { defaultTitle, isRangeType, PARAMETER_TYPES, type ParameterDefinition } from '../../../src/shared/parameters/index.ts'
import { queryTexts } from '../../../src/shared/query-texts.ts'
import { ui } from '../ui.ts'
import { checkDraft, definitionFrom, draftFrom, QUOTATIONS, type ParameterDraft, type Quotation } from './draft.ts'
import { QueryPicker } from './QueryPicker.tsx'
import { DialogHeader } from '../DialogHeader.tsx'

const t = queryTexts.parameters

function Field({ id, label, error, hint, children }: { id: string; label: string; error?: string; hint?: string; children: ReactNode }): JSX.Element {
  return (
    <div>
      <label htmlFor={id} className={ui.label}>{label}</label>
      {children}
      {error && <p id={`${id}-error`} className="mt-1 text-xs text-red-600 dark:text-red-400">{error}</p>}
      {hint && !error && <p id={`${id}-hint`} className="mt-1 text-xs text-slate-500 dark:text-slate-400">{hint}</p>}
    </div>
  )
}

/**
 * Add Parameter (toolbar, mod+p) and editing an existing one (spec 2 §5). The keyword of an existing parameter
 * is fixed, because the query text refers to it. Save stays disabled while the form is invalid; the keyword's
 * "required" text waits until the field was typed in or left, so a fresh dialog does not open with an error.
 */
export function AddParameterDialog({ definition, names, onSave, onClose }: {
  /** The parameter to edit, or null to add one. */
  definition: ParameterDefinition | null
  /** Keywords of the query's parameters (the edited one may be among them). */
  names: readonly string[]
  onSave: (definition: ParameterDefinition) => void
  onClose: () => void
}): JSX.Element {
  const [draft, setDraft] = useState<ParameterDraft>(() => draftFrom(definition))
  const [touched, setTouched] = useState(false)
  const uid = useId()
  const ids = { name: `${uid}-name`, title: `${uid}-title`, type: `${uid}-type`, options: `${uid}-options`, query: `${uid}-query`, multiple: `${uid}-multiple`, quotation: `${uid}-quotation` }
  const isNew = definition === null
  const errors = checkDraft(draft, names.filter((n) => n !== definition?.name))
  const valid = Object.keys(errors).length === 0
  const nameError = errors.name === t.keywordRequired && !touched ? undefined : errors.name
  const change = (patch: Partial<ParameterDraft>) => setDraft((d) => ({ ...d, ...patch }))
  const border = (bad: boolean) => (bad ? 'border-red-500 dark:border-red-500' : ui.inputBorder)
  const keyword = draft.name.trim() || 'keyword'

  function submit(event: FormEvent) {
    event.preventDefault()
    setTouched(true)
    if (valid) onSave(definitionFrom(draft, definition))
  }

  return (
    <Dialog.Root open onOpenChange={(open) => !open && onClose()}>
      <Dialog.Portal>
        <Dialog.Overlay className={ui.overlay} />
        <Dialog.Content className={`${ui.dialog} w-[30rem]`} aria-describedby={undefined}
          onOpenAutoFocus={(e) => {
            // Start where typing is needed: the keyword of a new parameter, the title of an existing one.
            e.preventDefault()
            document.getElementById(isNew ? ids.name : ids.title)?.focus()
          }}>
          <DialogHeader title={isNew ? t.addTitle : t.editTitle} closeLabel={t.close} />
          <form id={`${uid}-form`} noValidate onSubmit={submit} className="flex min-h-0 flex-1 flex-col gap-4 overflow-y-auto p-5">
            <Field id={ids.name} label={t.keyword} error={nameError} hint={isNew ? t.keywordHint(keyword) : undefined}>
              <input id={ids.name} type="text" value={draft.name} readOnly={!isNew} autoComplete="off" spellCheck={false} aria-required
                aria-invalid={nameError ? true : undefined} aria-describedby={nameError ? `${ids.name}-error` : `${ids.name}-hint`}
                onChange={(e) => {
                  change({ name: e.target.value })
                  setTouched(true)
                }} onBlur={() => setTouched(true)}
                className={`${ui.input} ${border(!!nameError)} font-mono read-only:bg-slate-50 dark:read-only:bg-slate-900`} />
            </Field>
            <Field id={ids.title} label={t.title}>
              <input id={ids.title} type="text" value={draft.title} autoComplete="off" placeholder={draft.name.trim() ? defaultTitle(draft.name.trim()) : ''}
                onChange={(e) => change({ title: e.target.value })} className={`${ui.input} ${ui.inputBorder}`} />
            </Field>
            <Field id={ids.type} label={t.type} hint={isRangeType(draft.type) ? t.rangeHint(keyword) : undefined}>
              <select id={ids.type} value={draft.type} aria-describedby={isRangeType(draft.type) ? `${ids.type}-hint` : undefined}
                onChange={(e) => change({ type: e.target.value as ParameterDraft['type'] })} className={`${ui.input} ${ui.inputBorder}`}>
                {PARAMETER_TYPES.map((type) => <option key={type} value={type}>{t.types[type]}</option>)}
              </select>
            </Field>
            {draft.type === 'enum' && (
              <Field id={ids.options} label={t.enumOptions} hint={t.enumHint}>
                <textarea id={ids.options} rows={5} value={draft.enumOptions} spellCheck={false} aria-describedby={`${ids.options}-hint`}
                  onChange={(e) => change({ enumOptions: e.target.value })} className={`${ui.input} ${ui.inputBorder} resize-y`} />
              </Field>
            )}
            {draft.type === 'query' && (
              <Field id={ids.query} label={t.query} error={touched ? errors.query : undefined}>
                <QueryPicker id={ids.query} value={draft.queryId} invalid={touched && !!errors.query}
                  describedBy={touched && errors.query ? `${ids.query}-error` : undefined} onChange={(queryId) => change({ queryId })} />
              </Field>
            )}
            {(draft.type === 'enum' || draft.type === 'query') && (
              <div className="flex flex-col gap-3">
                <label htmlFor={ids.multiple} className="flex items-center gap-2 text-sm font-medium text-slate-700 dark:text-slate-300">
                  <input id={ids.multiple} type="checkbox" className="h-4 w-4 accent-indigo-600" checked={draft.multiple}
                    onChange={(e) => change({ multiple: e.target.checked })} />
                  {t.multiple}
                </label>
                {draft.multiple && (
                  <Field id={ids.quotation} label={t.quotation}>
                    <select id={ids.quotation} value={draft.quotation} onChange={(e) => change({ quotation: e.target.value as Quotation })}
                      className={`${ui.input} ${ui.inputBorder}`}>
                      {QUOTATIONS.map((q) => <option key={q} value={q}>{t.quotations[q]}</option>)}
                    </select>
                  </Field>
                )}
              </div>
            )}
          </form>
          <div className="flex flex-col-reverse gap-2 border-t border-slate-200 px-5 py-3 sm:flex-row sm:justify-end dark:border-slate-800">
            <Dialog.Close className={ui.secondaryButton}>{t.cancel}</Dialog.Close>
            <button type="submit" form={`${uid}-form`} className={ui.primaryButton} disabled={!valid}>{isNew ? t.add : t.save}</button>
          </div>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  )
}
