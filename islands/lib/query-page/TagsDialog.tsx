import * as Dialog from '@radix-ui/react-dialog'
import { useEffect, useId, useState, type JSX } from 'react'
import { queryTexts } from '../../../src/shared/query-texts.ts'
import { api } from '../api.ts'
import { ui } from '../ui.ts'
import { DialogHeader } from '../DialogHeader.tsx'

const t = queryTexts.queryPage

/** spec 2 §5: tags are trimmed, de-duplicated, blanks dropped. */
export const cleanTags = (tags: readonly string[]) => [...new Set(tags.map((tag) => tag.trim()).filter(Boolean))]

/** Add/Edit Tags: the query's tags as a comma-separated line, with the organization's existing tags one click away. */
export function TagsDialog({ tags, onSave, onClose, suggestFrom = '/api/queries/tags' }: {
  tags: string[]; onSave: (tags: string[]) => Promise<boolean>; onClose: () => void
  /** Where the tags already in use come from, to suggest them: the queries' by default, the dashboards' on a dashboard. */
  suggestFrom?: string
}): JSX.Element {
  const [text, setText] = useState(tags.join(', '))
  const [known, setKnown] = useState<string[]>([])
  const [busy, setBusy] = useState(false)
  const id = useId()
  useEffect(() => {
    api<{ tags: { name: string }[] }>('GET', suggestFrom).then((r) => setKnown(r.tags.map((tag) => tag.name)), () => setKnown([]))
  }, [])
  const chosen = cleanTags(text.split(','))
  const suggestions = known.filter((tag) => !chosen.includes(tag))

  async function submit() {
    setBusy(true)
    try {
      if (await onSave(chosen)) onClose()
    } finally {
      setBusy(false)
    }
  }

  return (
    <Dialog.Root open onOpenChange={(open) => !open && !busy && onClose()}>
      <Dialog.Portal>
        <Dialog.Overlay className={ui.overlay} />
        <Dialog.Content className={`${ui.dialog} w-[28rem]`} aria-describedby={undefined}>
          <DialogHeader title={t.editTags} closeLabel={t.close} />
          <form className="flex flex-col gap-3 px-5 py-4" onSubmit={(e) => { e.preventDefault(); void submit() }}>
            <div>
              <label htmlFor={`${id}-tags`} className={ui.label}>{t.tags}</label>
              <input id={`${id}-tags`} className={`${ui.input} ${ui.inputBorder}`} value={text} onChange={(e) => setText(e.target.value)} autoFocus />
              <p className="mt-1 text-xs text-slate-500 dark:text-slate-400">{t.tagsHint}</p>
            </div>
            {suggestions.length > 0 && (
              <div>
                <p className="mb-1.5 text-xs font-medium text-slate-500 dark:text-slate-400">{t.tagSuggestions}</p>
                <div className="flex flex-wrap gap-1.5">
                  {suggestions.slice(0, 30).map((tag) => (
                    <button key={tag} type="button" onClick={() => setText([...chosen, tag].join(', '))}
                      className="rounded-full border border-slate-300 px-2.5 py-0.5 text-xs text-slate-700 hover:border-indigo-400 hover:bg-indigo-50 dark:border-slate-600 dark:text-slate-300 dark:hover:bg-slate-800">
                      + {tag}
                    </button>
                  ))}
                </div>
              </div>
            )}
            <div className="mt-2 flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
              <Dialog.Close type="button" className={ui.secondaryButton} disabled={busy}>{t.cancel}</Dialog.Close>
              <button type="submit" className={ui.primaryButton} disabled={busy}>{t.save}</button>
            </div>
          </form>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  )
}
