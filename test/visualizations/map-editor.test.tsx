import { renderToStaticMarkup } from 'react-dom/server'
import { describe, expect, it, vi } from 'vitest'
import { optionTabs } from '../../islands/lib/visualization-editor/options/index.ts'
import { dom } from './pictures.ts'

const tabsFor = (options: Record<string, unknown>, set = vi.fn()) =>
  optionTabs('CHOROPLETH', { options, columns: ['state', 'sales'], numeric: ['sales'], set })
const general = (options: Record<string, unknown>) => dom(renderToStaticMarkup(<>{tabsFor(options)[0].content}</>))
const choices = (doc: Document, label: string) => {
  const id = [...doc.querySelectorAll('label')].find((l) => l.textContent === label)!.getAttribute('for')
  return [...doc.querySelectorAll(`select[id="${id}"] option`)].map((o) => o.getAttribute('value'))
}

describe('marker options in the editor', () => {
  it('picks latitude and longitude from the numeric columns and the group from any column', () => {
    const tabs = optionTabs('MAP', { options: {}, columns: ['name', 'lat', 'lon', 'kind'], numeric: ['lat', 'lon'], set: vi.fn() })
    const doc = dom(renderToStaticMarkup(<>{tabs[0].content}</>))
    expect(choices(doc, 'Latitude Column')).toEqual(['lat', 'lon'])
    expect(choices(doc, 'Group by')).toEqual(['', 'name', 'lat', 'lon', 'kind'])
  })
})

describe('choropleth options in the editor', () => {
  it('offers the catalogue maps and the chosen map’s properties', () => {
    expect(tabsFor({}).map((t) => t.id)).toEqual(['general', 'format', 'colors'])
    const doc = general({ mapType: 'usa' })
    expect(choices(doc, 'Map')).toEqual(['countries', 'usa', 'japan/prefectures', 'south_korea/provinces'])
    expect(choices(doc, 'Target Field')).toEqual(['name', 'postal', 'fips'])
    expect(choices(doc, 'Value Column')).toEqual(['', 'sales'])
  })

  it("shows the established tool's property name as the catalogue's", () => {
    const doc = general({ mapType: 'usa', targetField: 'usps_abbrev' })
    const id = [...doc.querySelectorAll('label')].find((l) => l.textContent === 'Target Field')!.getAttribute('for')
    expect(doc.querySelector(`select[id="${id}"] option[selected]`)?.getAttribute('value')).toBe('postal')
  })
})
