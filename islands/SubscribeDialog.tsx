import * as Dialog from '@radix-ui/react-dialog'
import type { FormEvent, JSX } from 'react'
import { island } from '../src/shared/island.tsx'
import { reportUiTexts as t } from '../src/shared/report-texts.ts'
import { api, serverMessage } from './lib/api.ts'
import { DialogHeader } from './lib/DialogHeader.tsx'
import { initialReport, reduceReport, saveReport, sendReport, type ReportCommand, type ReportEvent, type ReportTarget } from './lib/report/model.ts'
import { pageFilters, pageValues, reportParameters } from './lib/report/ReportValues.tsx'
import { SubscribeForm, type SubscribeFormProps } from './lib/report/SubscribeForm.tsx'
import { ui } from './lib/ui.ts'
import { useModel, type Dispatch } from './lib/use-model.ts'

/** What the server decides for the dialog: the report's target, the caller, and whom they may send it to. */
export interface SubscribeDialogProps extends SubscribeFormProps {
  target: ReportTarget
  /** Edit rights on the dashboard (query) or admin: others, groups and destinations are offered. */
  mayShare: boolean
  /** The organization's time zone. */
  timeZone: string
  /** The caller's own (their profile), offered beside the organization's and chosen first; null when they set none. */
  userTimeZone: string | null
}

async function run(command: ReportCommand, dispatch: Dispatch<ReportEvent>) {
  if (command.kind === 'save') await dispatch(await saveReport(api, command.path, command.body, serverMessage))
  else await dispatch(await sendReport(api, command.path, command.to, serverMessage))
}

/**
 * **Subscribe…** on a dashboard and a query page: when (every N hours, daily or weekly on chosen days, until a date),
 * in which time zone, to whom (oneself; others, groups and destinations for editors and admins), what to attach and
 * whether to skip empty results. Save makes the report; Send now sends it at once, or as a preview to oneself.
 */
function SubscribeDialog(p: SubscribeDialogProps): JSX.Element {
  const [state, dispatch] = useModel(reduceReport, () => initialReport(p.target, p.me, p.timeZone, p.userTimeZone), run)
  const send = (event: ReportEvent) => void dispatch(event)
  function openChange(next: boolean) {
    send(next ? { type: 'open', values: pageValues(p.parameters), filters: pageFilters() } : { type: 'close' })
  }
  function save(event: FormEvent) {
    event.preventDefault()
    send({ type: 'save', parameters: reportParameters(p.parameters, state.values) })
  }
  return (
    <Dialog.Root open={state.open} onOpenChange={openChange}>
      <Dialog.Trigger className={ui.secondaryButton} data-subscribe>{t.subscribe}</Dialog.Trigger>
      <Dialog.Portal>
        <Dialog.Overlay className={ui.overlay} />
        <Dialog.Content className={`${ui.dialog} w-[36rem]`} aria-describedby={undefined}>
          <DialogHeader title={t.title} closeLabel={t.close} busy={state.busy} />
          <SubscribeForm p={p} state={state} dispatch={send} onSubmit={save} />
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  )
}

export default island('SubscribeDialog', SubscribeDialog)
