/** The front door of src/session/: what the rest of Sightline may use of it (the structure test keeps it so). */

export { clientConfig, QUERY_REFRESH_INTERVALS, sessionMessages } from './client-config.ts'
export { sessionJson } from './session-json.ts'
