import * as Dialog from '@radix-ui/react-dialog'
import type { JSX } from 'react'
import { island } from '../src/shared/island.tsx'
import { texts } from '../src/shared/texts.ts'
import { api, serverMessage } from './lib/api.ts'
import { DialogHeader } from './lib/DialogHeader.tsx'
import { createUser, initialNewUser, reduceNewUser, type NewUserCommand, type NewUserEvent } from './lib/new-user/model.ts'
import { InvitationSent } from './lib/new-user/InvitationSent.tsx'
import { fieldIds, NewUserForm } from './lib/new-user/NewUserForm.tsx'
import { ui } from './lib/ui.ts'
import { useModel, type Dispatch } from './lib/use-model.ts'

const t = texts.userActions

async function run(command: NewUserCommand, dispatch: Dispatch<NewUserEvent>) {
  if (command.kind === 'focus') document.getElementById(fieldIds[command.field])?.focus()
  else if (command.kind === 'save') await dispatch(await createUser(api, command.body, serverMessage))
  else window.location.assign(command.path)
}

/**
 * The create-user dialog of /users/new (spec 3 §2, §5, §8): name and email, both required, the email checked; a
 * failure shows in an alert inside the dialog. Once the user is invited it says how the invitation travels: by mail,
 * or, with no mail server, as a link to copy. Dismissing goes back to the list; closing after an invitation goes to
 * the pending invitations, where the new user is.
 */
function NewUserDialog(): JSX.Element {
  const [state, dispatch] = useModel(reduceNewUser, initialNewUser, run)
  const send = (event: NewUserEvent) => void dispatch(event)
  const close = () => send({ type: 'close' })
  return (
    <Dialog.Root open={state.open} onOpenChange={(next) => !next && close()}>
      <Dialog.Portal>
        <Dialog.Overlay className={ui.overlay} />
        <Dialog.Content className={`${ui.dialog} w-[32rem]`} aria-describedby={undefined}
          onOpenAutoFocus={(e) => {
            // the first field rather than the close button
            e.preventDefault()
            document.getElementById(fieldIds.name)?.focus()
          }}>
          <DialogHeader title={t.createTitle} closeLabel={t.close} busy={state.saving} />
          {state.created
            ? <InvitationSent user={state.created} onClose={close} />
            : <NewUserForm state={state} dispatch={send} />}
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  )
}

export default island('NewUserDialog', NewUserDialog)
