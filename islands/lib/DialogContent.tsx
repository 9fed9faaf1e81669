import * as Dialog from '@radix-ui/react-dialog'
import { forwardRef, type ComponentPropsWithoutRef, type ElementRef } from 'react'

/** What a person types in or picks from: the first of these is where a dialog starts. */
const FIELDS = 'input:not([type="hidden"]), select, textarea, [contenteditable="true"], [role="textbox"], [role="combobox"]'
/** A dialog's main button, when it has nothing to fill in: marked, or its form's submit button. */
const PRIMARY = '[data-dialog-primary], button[type="submit"]'

const usable = (el: HTMLElement) =>
  !(el as HTMLInputElement).disabled && el.closest('[inert], [hidden], [aria-hidden="true"]') === null && el.getClientRects().length > 0

/**
 * Where focus lands when a dialog opens: its first field, else its primary action, else the dialog itself, never the
 * × of its title bar (Radix's default, the first tabbable element, is that ×, so typing went nowhere and Enter closed
 * the dialog).
 */
export function firstStop(container: HTMLElement): HTMLElement {
  const pick = (selector: string) => [...container.querySelectorAll<HTMLElement>(selector)].find(usable)
  return pick(FIELDS) ?? pick(PRIMARY) ?? container
}

/** Focus a dialog's first stop when it opens (an `onOpenAutoFocus` handler). */
export function focusFirstStop(event: Event): void {
  event.preventDefault()
  const container = event.currentTarget as HTMLElement
  // an element the dialog focused itself (autoFocus) is already the right place
  if (container.contains(document.activeElement) && document.activeElement !== container) return
  const stop = firstStop(container)
  if (stop === container && !container.hasAttribute('tabindex')) container.tabIndex = -1
  stop.focus({ preventScroll: stop === container })
  if (stop instanceof HTMLInputElement && stop.type === 'text') stop.select()
}

/**
 * Every dialog's content: Radix's, opening on the dialog's first field or primary action (see `firstStop`). A dialog
 * that knows better passes its own `onOpenAutoFocus`.
 */
export const DialogContent = forwardRef<ElementRef<typeof Dialog.Content>, ComponentPropsWithoutRef<typeof Dialog.Content>>(
  function DialogContent({ onOpenAutoFocus, ...props }, ref) {
    return <Dialog.Content ref={ref} onOpenAutoFocus={onOpenAutoFocus ?? focusFirstStop} {...props} />
  },
)
