import type { JSX } from 'react'
import { TypeMark, type Mark } from './TypeMark.tsx'

/**
 * Small marks for data source types, drawn inline (no outside images): a rounded tile in the engine's colour with a
 * simple glyph. Lives beside the islands because the create dialog draws them in the browser too; the server pages
 * import it through src/ui/DataSourceLogo.tsx.
 */
const white = '#ffffff'
const stroke = { fill: 'none', strokeWidth: 2.4, strokeLinecap: 'round', strokeLinejoin: 'round' } as const

const marks: Record<string, Mark> = {
  pg: {
    tile: '#336791',
    glyph: (
      <g>
        {/* an elephant's head: big ear, round head, curled trunk */}
        <ellipse cx="26.5" cy="17.5" rx="6.5" ry="8.5" fill={white} />
        <circle cx="17.5" cy="16.5" r="8.5" fill={white} stroke="#336791" strokeWidth="2" />
        <path d="M12.2 21.5c-1.4 3.6-1 7.6 2.6 9 1.4.5 2.6.1 3.2-.8" fill="none" stroke={white} strokeWidth="4" strokeLinecap="round" />
        <circle cx="19.5" cy="14.5" r="1.5" fill="#336791" />
      </g>
    ),
  },
  mysql: {
    tile: '#00758f',
    glyph: (
      <g>
        {/* a leaping dolphin over a wave */}
        <path fill={white} d="M7.5 24.5c5.6.3 9.4-2.3 12.2-6.6 2.6-4 6-6.8 11.3-6.6 1.2 0 2.2.4 2.7 1.2-1.4.2-2.4.9-2.6 2-2.2-.8-4.9-.2-6.9 1.8-2.6 2.6-4.3 6.7-9 8.4-2.4.9-5 .9-7.7-.2z" />
        <path fill={white} d="M21.3 14.6l-.8-4.6 4.6 2.6z" />
        <path d="M9 30.5c3-1.6 6-1.6 9 0s6 1.6 9 0 4.5-1.4 6 0" fill="none" stroke="#f29111" strokeWidth="2.4" strokeLinecap="round" />
      </g>
    ),
  },
  sqlite: {
    tile: '#003b57',
    glyph: (
      <g {...stroke}>
        {/* a quill */}
        <path stroke="#8fd2ff" fill="#0f80cc" d="M29.5 8.5c-7.5 1.5-13 7-14.8 15.5l-.7 3.3 3.3-.7c8.5-1.8 13.5-8.3 12.2-18.1z" />
        <path stroke={white} d="M10 31l10.5-12.5" />
      </g>
    ),
  },
  duckdb: {
    tile: '#1f1f1f',
    glyph: (
      <g fill="#fff100">
        {/* the duck: a round head and a flat beak */}
        <circle cx="16" cy="20" r="8.5" />
        <rect x="26.5" y="17.2" width="8" height="5.6" rx="2.8" />
      </g>
    ),
  },
  clickhouse: {
    tile: '#1c1c1c',
    glyph: (
      <g fill="#faff69">
        {/* columns, the last one short */}
        <rect x="8.5" y="9" width="3.4" height="22" rx=".6" />
        <rect x="14.2" y="9" width="3.4" height="22" rx=".6" />
        <rect x="19.9" y="9" width="3.4" height="22" rx=".6" />
        <rect x="25.6" y="9" width="3.4" height="22" rx=".6" />
        <rect x="31.3" y="16.6" width="3.4" height="6.8" rx=".6" />
      </g>
    ),
  },
  json: {
    tile: '#334155',
    glyph: (
      <g {...stroke} stroke="#fbbf24">
        {/* curly braces */}
        <path d="M16 9.5c-2.6 0-3.5 1.2-3.5 3.5v3.2c0 1.9-.9 3.1-2.8 3.8 1.9.7 2.8 1.9 2.8 3.8V27c0 2.3.9 3.5 3.5 3.5" />
        <path d="M24 9.5c2.6 0 3.5 1.2 3.5 3.5v3.2c0 1.9.9 3.1 2.8 3.8-1.9.7-2.8 1.9-2.8 3.8V27c0 2.3-.9 3.5-3.5 3.5" />
      </g>
    ),
  },
  files: {
    tile: '#0f766e',
    glyph: (
      <g {...stroke} stroke={white} strokeWidth={2}>
        {/* a sheet with a folded corner and the rows of a table */}
        <path d="M12 8.5h11l5 5v18H12z" />
        <path d="M23 8.5v5h5M15.5 19h9M15.5 23h9M15.5 27h9" />
      </g>
    ),
  },
  databricks: {
    tile: '#ff3621',
    glyph: (
      <g stroke={white} strokeWidth={2.4} strokeLinecap="round" strokeLinejoin="round">
        {/* stacked layers */}
        <path fill={white} d="M20 8.5l10 5.2-10 5.2-10-5.2z" />
        <path fill="none" d="M10 20l10 5.2L30 20" />
        <path fill="none" d="M10 25.8L20 31l10-5.2" />
      </g>
    ),
  },
  results: {
    tile: '#0f766e',
    glyph: (
      <g {...stroke} stroke={white} strokeWidth={2.2}>
        {/* two result tables joined */}
        <rect x="7.5" y="10" width="11" height="14" rx="1.5" />
        <rect x="21.5" y="16" width="11" height="14" rx="1.5" />
        <path d="M7.5 15h11M21.5 21h11M18.5 19.5h3" />
      </g>
    ),
  },
  prometheus: {
    tile: '#e6522c',
    glyph: (
      <g fill={white}>
        {/* a flame over a bar, over a thinner bar */}
        <path d="M20 8.5c1.2 3.2 4.8 5.3 4.8 9.6 0 1.9-.8 3.4-1.9 4.4.3-1.7-.3-3.4-1.6-4.6-.3 1.8-1.4 2.8-2.4 3.6-1.2.9-1.9 2-1.9 3.4-1.9-1.1-3.1-3.1-3.1-5.4 0-3.6 2.8-5 3.6-8.3.4 1.2.4 2.4 0 3.6 1.9-1.5 2.9-3.9 2.5-6.3z" />
        <rect x="12.5" y="26.5" width="15" height="2.6" rx="1.3" />
        <rect x="15" y="30.6" width="10" height="2.2" rx="1.1" />
      </g>
    ),
  },
  influxdb: {
    tile: '#020a47',
    glyph: (
      <g {...stroke} stroke="#22adf6" strokeWidth={2}>
        {/* a cube seen from a corner */}
        <path d="M20 8.5l10 5.8v11.4l-10 5.8-10-5.8V14.3z" />
        <path d="M10 14.3l10 5.8 10-5.8M20 20.1v11.4" />
      </g>
    ),
  },
  trino: {
    tile: '#1e1b4b',
    glyph: (
      <g {...stroke} stroke="#dd00a1" strokeWidth={2.2}>
        {/* a bunny's head: two long ears over a round face */}
        <path d="M16 17c-2.5-3-3.2-7-2-9.2 2.3.4 4.3 4 4.6 8.2M24 17c2.5-3 3.2-7 2-9.2-2.3.4-4.3 4-4.6 8.2" />
        <circle cx="20" cy="24" r="7" fill="#dd00a1" />
      </g>
    ),
  },
  presto: {
    tile: '#5890ff',
    glyph: (
      <g {...stroke} stroke={white} strokeWidth={2.4}>
        {/* a fast arrow through a ring */}
        <circle cx="20" cy="20" r="9" />
        <path d="M9 20h17M21.5 15.5L26 20l-4.5 4.5" />
      </g>
    ),
  },
  elasticsearch: {
    tile: '#ffffff',
    glyph: (
      <g>
        {/* three bands of a round mark: yellow, teal, pink */}
        <path fill="#fec514" d="M9.5 14.5a11 11 0 0 1 21 0z" />
        <rect x="8.5" y="17" width="23" height="6" rx="1" fill="#00bfb3" />
        <path fill="#f04e98" d="M9.5 25.5a11 11 0 0 0 21 0z" />
      </g>
    ),
  },
  bigquery: {
    tile: '#4285f4',
    glyph: (
      <g {...stroke} stroke={white} strokeWidth={2.4}>
        {/* a magnifier over bars */}
        <circle cx="18" cy="18" r="8.5" />
        <path d="M24.2 24.2L31 31M15 21v-3M18 21v-6M21 21v-4" />
      </g>
    ),
  },
  snowflake: {
    tile: '#29b5e8',
    glyph: (
      <g {...stroke} stroke={white} strokeWidth={2.4}>
        {/* a six-armed flake */}
        <path d="M20 8v24M9.6 14l20.8 12M9.6 26l20.8-12M17 10.5l3 3 3-3M17 29.5l3-3 3 3" />
      </g>
    ),
  },
  athena: {
    tile: '#232f3e',
    glyph: (
      <g {...stroke} stroke="#ff9900" strokeWidth={2.2}>
        {/* a column's capital over a query's lines */}
        <path d="M10 13h20M12 13v15M20 13v15M28 13v15M9 30h22M14 9.5h12" />
      </g>
    ),
  },
  mongodb: {
    tile: '#001e2b',
    glyph: (
      <g>
        {/* a leaf on its stem */}
        <path fill="#00ed64" d="M20 7.5c4.6 4.4 7 8.8 7 13.2 0 4.7-2.6 7.9-6 9.3l-1 .4-1-.4c-3.4-1.4-6-4.6-6-9.3 0-4.4 2.4-8.8 7-13.2z" />
        <path stroke="#001e2b" strokeWidth="1.4" strokeLinecap="round" d="M20 12v18" />
        <path stroke="#00ed64" strokeWidth="1.8" strokeLinecap="round" d="M20 30v3" />
      </g>
    ),
  },
  google_spreadsheets: {
    tile: '#0f9d58',
    glyph: (
      <g {...stroke} stroke={white} strokeWidth={2}>
        {/* a sheet's grid */}
        <rect x="11" y="8.5" width="18" height="23" rx="1.5" />
        <path d="M11 16h18M11 22h18M11 27h18M18 16v15.5" />
      </g>
    ),
  },
  database: {
    tile: '#64748b',
    glyph: (
      <g {...stroke} stroke={white} strokeWidth={2.2}>
        <ellipse cx="20" cy="11.5" rx="9" ry="3.5" />
        <path d="M11 11.5v17c0 1.9 4 3.5 9 3.5s9-1.6 9-3.5v-17" />
        <path d="M11 20c0 1.9 4 3.5 9 3.5s9-1.6 9-3.5" />
      </g>
    ),
  },
}

const aliases: Record<string, string> = {
  postgres: 'pg', postgresql: 'pg', redshift: 'pg', cockroach: 'pg',
  mariadb: 'mysql', rds_mysql: 'mysql',
  url: 'json',
  bigquery_gce: 'bigquery',
  csv: 'files', excel: 'files',
  elasticsearch2: 'elasticsearch', elasticsearch2_OpenDistroSQLElasticSearch: 'elasticsearch', elasticsearch2_XPackSQLElasticSearch: 'elasticsearch', aws_es: 'elasticsearch',
}

/** The mark for a type; unknown types get the generic database mark. */
export function logoKey(type: string): string {
  const key = aliases[type] ?? type
  return key in marks ? key : 'database'
}

/** A type's logo, decorative unless given a label (then an image named by it). */
export function DataSourceLogo({ type, className = 'h-10 w-10', label }: { type: string; className?: string; label?: string }): JSX.Element {
  const key = logoKey(type)
  return <TypeMark mark={marks[key]} data={{ 'data-logo': key }} className={className} label={label} />
}
