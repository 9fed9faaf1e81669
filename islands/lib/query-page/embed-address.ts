/** The switches of an embed's address (spec 2 §2); each counts when present. */
export interface EmbedSwitches {
  hide_header?: boolean
  hide_parameters?: boolean
  hide_link?: boolean
  hide_timestamp?: boolean
  showDescription?: boolean
}

/**
 * The address of a visualization's embed page: the query's key, then the switches that are on, written bare
 * (`&hide_link`) as the established tool writes them.
 *
 * @example embedAddress('https://bi.example.com', 3, 7, 'k', { hide_link: true }) // 'https://bi.example.com/embed/query/3/visualization/7?api_key=k&hide_link'
 */
export function embedAddress(origin: string, queryId: number, visualizationId: number, key: string, switches: EmbedSwitches): string {
  const on = Object.entries(switches).filter(([, value]) => value).map(([name]) => `&${name}`).join('')
  return `${origin}/embed/query/${queryId}/visualization/${visualizationId}?api_key=${encodeURIComponent(key)}${on}`
}

/** The iframe snippet a page pastes; `&` stays as typed (no `;` follows it, so HTML reads it as itself). */
export function iframeSnippet(url: string, width: number, height: number): string {
  const escaped = url.replace(/"/g, '&quot;').replace(/</g, '&lt;')
  return `<iframe src="${escaped}" width="${width}" height="${height}"></iframe>`
}
