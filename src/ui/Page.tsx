import type { Context } from 'hono'
import type { ReactNode } from 'react'
import type { Env } from '../http/env.ts'
import { signedIn } from '../http/guards.ts'
import { originOf } from '../settings/public-origin.ts'
import { isAdmin } from '../permissions/can.ts'
import { renderPage } from '../http/render.tsx'
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
