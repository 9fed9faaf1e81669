import type { Context } from 'hono'
import type { ReactNode } from 'react'
import type { Env } from '../http/env.ts'
import { signedIn } from '../http/guards.ts'
import { renderPage } from '../http/render.tsx'
import { isNewer, VERSION } from '../version.ts'
import { AppShell } from './AppShell.tsx'

/** Render a signed-in page inside the app shell. */
export function renderShellPage(c: Context<Env>, node: ReactNode, o: { title: string; section?: string; status?: number }): Response {
  const { principal } = signedIn(c)
  return renderPage(c, (
    <AppShell principal={principal} version={VERSION} newVersionAvailable={isNewer(c.get('deps').config.latestVersion)} section={o.section}>
      {node}
    </AppShell>
  ), { title: o.title, status: o.status })
}
