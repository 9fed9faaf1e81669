import type { JSX, ReactNode } from 'react'
import { TypeMark, type Mark } from './TypeMark.tsx'

/**
 * Marks for alert destination types, drawn inline like the data source logos (no outside images or icon fonts): a
 * rounded tile in the service's colour with a simple glyph. Beside the islands because the create dialog and the
 * alert page's destination list draw them in the browser too.
 */
const white = '#ffffff'
const line = { fill: 'none', stroke: white, strokeWidth: 2.4, strokeLinecap: 'round', strokeLinejoin: 'round' } as const

const bolt = <path fill={white} d="M22.5 7L11 22h7.5l-2 11L29 18h-7.5z" />
const bubble = (extra?: ReactNode) => (
  <g>
    <path {...line} d="M9.5 12.5a3 3 0 0 1 3-3h15a3 3 0 0 1 3 3v10a3 3 0 0 1-3 3H17l-5.5 4.5v-4.5a3 3 0 0 1-2-3z" />
    {extra}
  </g>
)

const marks: Record<string, Mark> = {
  email: { tile: '#4f46e5', glyph: <g {...line}><rect x="8.5" y="11.5" width="23" height="17" rx="2" /><path d="M9.5 13l10.5 8 10.5-8" /></g> },
  slack: {
    tile: '#4a154b',
    glyph: (
      <g strokeWidth="3.6" strokeLinecap="round">
        {/* the four-coloured hash */}
        <path stroke="#36c5f0" d="M16 9.5v21" /><path stroke="#2eb67d" d="M24 9.5v21" />
        <path stroke="#ecb22e" d="M9.5 16h21" /><path stroke="#e01e5a" d="M9.5 24h21" />
      </g>
    ),
  },
  webhook: { tile: '#0f766e', glyph: bolt },
  discord: {
    tile: '#5865f2',
    glyph: (
      <g>
        <path fill={white} d="M12 13.5c2.5-1.6 5-2.2 5-2.2l.6 1.2c1.6-.3 3.2-.3 4.8 0l.6-1.2s2.5.6 5 2.2c1.7 3.2 2.6 6.7 2.4 10.8-2 1.5-4 2.4-6 2.9l-1.2-2c.8-.3 1.5-.7 2.2-1.1-3.9 1.8-8.9 1.8-12.8 0 .7.4 1.4.8 2.2 1.1l-1.2 2c-2-.5-4-1.4-6-2.9-.2-4.1.7-7.6 2.4-10.8z" />
        <circle cx="16.3" cy="20" r="1.8" fill="#5865f2" /><circle cx="23.7" cy="20" r="1.8" fill="#5865f2" />
      </g>
    ),
  },
  mattermost: { tile: '#1e325c', glyph: <g {...line}><circle cx="20" cy="20" r="10" /><path d="M21.5 12.5l-4 8.5 3.5 1.5z" fill={white} /></g> },
  chatwork: { tile: '#e8393b', glyph: bubble(<path {...line} d="M15 17.5h10M15 21.5h6" />) },
  pagerduty: { tile: '#06ac38', glyph: <g {...line} strokeWidth={3}><path d="M15 31V10h6a5.5 5.5 0 0 1 0 11h-6" /></g> },
  hangouts_chat: { tile: '#00897b', glyph: bubble(<path fill={white} d="M15.5 15h3.5v4l-2 3h-1.5l1.2-3h-1.2zM21.5 15H25v4l-2 3h-1.5l1.2-3h-1.2z" />) },
  microsoft_teams_webhook: {
    tile: '#5059c9',
    glyph: (
      <g>
        <rect x="9" y="13" width="14" height="14" rx="2" fill={white} />
        <path d="M12.5 17h7M16 17v7" stroke="#5059c9" strokeWidth="2.2" strokeLinecap="round" />
        <circle cx="27" cy="14.5" r="2.5" fill={white} /><path d="M25 19h5a1.5 1.5 0 0 1 1.5 1.5V25a3.5 3.5 0 0 1-6.5 1.8z" fill={white} />
      </g>
    ),
  },
  hipchat: { tile: '#64748b', glyph: bubble(<path {...line} d="M15.5 19.5c2.5 2 6.5 2 9 0" />) },
}

/** The mark's key for a type; unknown types get the webhook's bolt. */
export const destinationIconKey = (type: string) => (type in marks ? type : 'webhook')

/** A destination type's mark, decorative unless given a label (then an image named by it). */
export function DestinationIcon({ type, className = 'h-10 w-10', label }: { type: string; className?: string; label?: string }): JSX.Element {
  const key = destinationIconKey(type)
  return <TypeMark mark={marks[key]} data={{ 'data-icon': key }} className={className} label={label} />
}
