import { describe, expect, it } from 'vitest'
import { ADMIN_PERMISSIONS, DEFAULT_PERMISSIONS } from '../permissions/index.ts'
import { navigation } from './navigation.ts'

describe('navigation by permission (spec 1 §2)', () => {
  it('gives an admin everything, with Settings on Data Sources', () => {
    const nav = navigation([...ADMIN_PERMISSIONS, ...DEFAULT_PERMISSIONS])
    expect(nav.main.map((i) => i.key)).toEqual(['dashboards', 'queries', 'alerts'])
    expect(nav.create.map((i) => i.key)).toEqual(['new_query', 'new_dashboard', 'new_alert'])
    expect(nav.settingsHref).toBe('/data_sources')
    expect(nav.superAdmin).toBe(true)
  })

  it('points a default user\'s Settings at Users, the first item they may see', () => {
    const nav = navigation(DEFAULT_PERMISSIONS)
    expect(nav.settingsHref).toBe('/users')
    expect(nav.superAdmin).toBe(false)
  })

  it('hides what the permissions do not allow, and the Create menu when nothing can be created', () => {
    const nav = navigation(['view_query'])
    expect(nav.main.map((i) => i.key)).toEqual(['queries'])
    expect(nav.create).toEqual([])
    expect(nav.settingsHref).toBeUndefined()
  })

  it('shows New Alert with list_alerts alone', () => {
    expect(navigation(['list_alerts']).create.map((i) => i.key)).toEqual(['new_alert'])
  })

  it('offers an admin what the server lets an admin do, but not system status without super_admin', () => {
    const nav = navigation(['admin'])
    expect(nav.main.map((i) => i.key)).toEqual(['dashboards', 'queries', 'alerts'])
    expect(nav.settingsHref).toBe('/data_sources')
    expect(nav.superAdmin).toBe(false)
  })
})
