import { useRef, type JSX } from 'react'
import { texts } from '../../src/shared/texts.ts'
import { originTexts } from '../../src/shared/origin-texts.ts'
import { absoluteLink, isRootRelative } from './absolute-link.ts'
import { toast } from './bus.ts'
import { ui } from './ui.ts'

const t = texts.userActions

/**
 * What an admin sees instead of a mail when no mail server is configured (spec 3 §8): 'Email not sent!', 'The mail
 * server is not configured.', and the invitation or reset link itself, to hand over, with a Copy button. A
 * root-relative link means Sightline does not know its own address yet (so nothing was mailed): it says so.
 */
export function LinkNotice({ link: answered, explanation, idPrefix }: { link: string; explanation: string; idPrefix: string }): JSX.Element {
  const input = useRef<HTMLInputElement>(null)
  const link = absoluteLink(answered)
  const reason = isRootRelative(answered) ? originTexts.linkNotMailed : t.mailNotConfigured
  const inputId = `${idPrefix}-link`

  async function copy() {
    try {
      await navigator.clipboard.writeText(link)
      toast(texts.profile.copied)
    } catch {
      // clipboards need a secure origin and permission: select the text so the admin can copy it themself
      input.current?.select()
      toast(t.copyFailed, 'warning')
    }
  }

  return (
    <div role="alert" aria-labelledby={`${idPrefix}-title`}
      className="flex flex-col gap-3 rounded-md border border-amber-300 bg-amber-50 px-4 py-3 text-sm text-amber-900 dark:border-amber-800 dark:bg-amber-950/50 dark:text-amber-100">
      <p id={`${idPrefix}-title`} className="font-semibold">{t.emailNotSent}</p>
      <p>{reason} {explanation}</p>
      <div className="flex flex-col gap-2 sm:flex-row">
        <label htmlFor={inputId} className="sr-only">{t.link}</label>
        <input id={inputId} ref={input} type="text" readOnly value={link} spellCheck={false} onFocus={(e) => e.target.select()}
          className={`${ui.input} ${ui.inputBorder} min-w-0 flex-1 font-mono text-xs`} />
        <button type="button" className={ui.secondaryButton} onClick={copy}>{t.copyLink}</button>
      </div>
    </div>
  )
}
