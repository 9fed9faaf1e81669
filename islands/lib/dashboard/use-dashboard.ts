import { useRef, useState } from 'react'
import { dashboardTexts } from '../../../src/shared/dashboard-texts.ts'
import { api, ApiError, serverMessage } from '../api.ts'
import { toast } from '../bus.ts'
import { headerFields, type HeaderDashboard } from './types.ts'

const t = dashboardTexts.header

export type DashboardChanges = Partial<Pick<HeaderDashboard, 'name' | 'tags' | 'is_draft' | 'is_archived' | 'dashboard_filters_enabled'>>
  // the whole options (the API replaces them): saved dashboard parameter values and their order
  & { options?: Record<string, unknown> }

/** A failed change, told as spec 2 §8 words it; a conflict stays on screen until closed. */
export function reportUpdateFailure(error: unknown) {
  if (error instanceof ApiError && error.status === 403) toast(t.updateFailed, 'error', { description: t.permissionDenied })
  else if (error instanceof ApiError && error.status === 409) toast(t.conflict, 'error', { description: t.conflictHint, persistent: true })
  else toast(t.updateFailed, 'error', { description: serverMessage(error) || undefined })
}

/**
 * The dashboard as the header knows it, and its changes: each sent with the version last seen, so a change made
 * meanwhile by someone else is refused (409) instead of overwritten. Resolves true when saved.
 */
export function useDashboard(initial: HeaderDashboard) {
  const [dashboard, setDashboard] = useState(initial)
  // the version of the latest answer, also for changes sent before React re-renders
  const version = useRef(initial.version)

  function accept(answer: HeaderDashboard) {
    version.current = answer.version
    setDashboard(headerFields(answer))
  }

  async function update(changes: DashboardChanges): Promise<boolean> {
    try {
      accept(await api<HeaderDashboard>('POST', `/api/dashboards/${initial.id}`, { ...changes, version: version.current }))
      return true
    } catch (error) {
      reportUpdateFailure(error)
      return false
    }
  }

  async function archive(): Promise<boolean> {
    try {
      accept(await api<HeaderDashboard>('DELETE', `/api/dashboards/${initial.id}`))
      return true
    } catch (error) {
      reportUpdateFailure(error)
      return false
    }
  }

  async function setFavorite(favorite: boolean) {
    setDashboard((d) => ({ ...d, is_favorite: favorite }))
    try {
      await api(favorite ? 'POST' : 'DELETE', `/api/dashboards/${initial.id}/favorite`)
    } catch {
      setDashboard((d) => ({ ...d, is_favorite: !favorite }))
      toast(t.favoriteFailed, 'error')
    }
  }

  return { dashboard, update, archive, setFavorite }
}
