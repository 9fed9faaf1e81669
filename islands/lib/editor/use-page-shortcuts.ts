import { useEffect, useEffectEvent } from 'react'
import { isFormatShortcut } from './SqlEditor.tsx'

/**
 * Save (mod+s), Execute (mod+enter) and Format (mod+shift+f) also work when the focus is outside the editor (the
 * editor handles them itself inside): one listener for the page's life, which always calls the latest commands.
 */
export function usePageShortcuts(commands: { save(): void; execute(): void; format(): void }) {
  const onShortcut = useEffectEvent((event: KeyboardEvent) => {
    if (event.defaultPrevented || !(event.metaKey || event.ctrlKey)) return
    const command = isFormatShortcut(event) ? commands.format : event.key === 's' ? commands.save : event.key === 'Enter' ? commands.execute : null
    if (!command) return
    event.preventDefault()
    command()
  })
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => onShortcut(event)
    window.addEventListener('keydown', onKey)
    return () => window.removeEventListener('keydown', onKey)
  }, [])
}
