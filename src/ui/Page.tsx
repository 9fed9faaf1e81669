import type { Context } from 'hono'
import type { ReactNode } from 'react'
import type { Env } from '../http/index.ts'
import { signedIn, renderPage } from '../http/index.ts'
import { originOf } from '../settings/index.ts'
import { isAdmin } from '../permissions/index.ts'
import { isNewer, VERSION } from '../version.ts'
import { AppShell } from './AppShell.tsx'

/** Render a signed-in page inside the app shell; admins are asked for Sightline's address until it is set. */
export function renderShellPage(c: Context<Env>, node: ReactNode, o: { title: string; section?: string; status?: number }): Response {
  const { principal, org } = signedIn(c)
  const { config } = c.get('deps')
  const originMissing = isAdmin(principal) && originOf(config, org.settings) === null
  return renderPage(c, (
    <AppShell principal={principal} version={VERSION} newVersionAvailable={isNewer(config.latestVersion)} section={o.section} originMissing={originMissing}>
      {node}
    </AppShell>
  ), { title: o.title, status: o.status })
}
