/**
 * The editor's choices remembered in this browser (spec 2 §9): autocomplete, auto-limit, the last data source and
 * the last Databricks database of each source.
 */
const KEYS = {
  autocomplete: 'sightline:editor:autocomplete',
  autoLimit: 'sightline:editor:auto-limit',
  lastDataSource: 'sightline:editor:last-data-source',
} as const

function read(key: string): string | null {
  try {
    return window.localStorage.getItem(key)
  } catch {
    return null // storage blocked (private mode, policy): fall back to the defaults
  }
}

function write(key: string, value: string) {
  try {
    window.localStorage.setItem(key, value)
  } catch {
    // not remembered; the choice still applies on this page
  }
}

export const prefs = {
  autocomplete: () => read(KEYS.autocomplete) !== 'false',
  setAutocomplete: (on: boolean) => write(KEYS.autocomplete, String(on)),
  /** spec 1 §9: auto-limit defaults to on. */
  autoLimit: () => read(KEYS.autoLimit) !== 'false',
  setAutoLimit: (on: boolean) => write(KEYS.autoLimit, String(on)),
  lastDataSource: () => Number(read(KEYS.lastDataSource)) || null,
  setLastDataSource: (id: number) => write(KEYS.lastDataSource, String(id)),
  databricksDatabase: (dataSourceId: number) => read(`sightline:editor:databricks-database:${dataSourceId}`),
  setDatabricksDatabase: (dataSourceId: number, name: string) => write(`sightline:editor:databricks-database:${dataSourceId}`, name),
}
