import { createContext, useContext, type ComponentType, type JSX, type ReactElement } from 'react'

/**
 * Collects the islands a page rendered, so the page loads exactly their scripts and no others. The server gives it a
 * way to render one island as a tree of its own (`renderRoot`), so that ids from React's useId() come out the same
 * on the server and in the browser, where each island is hydrated as its own root with the same prefix.
 */
export class IslandCollector {
  readonly names = new Set<string>()
  private count = 0

  constructor(readonly renderRoot: (element: ReactElement, identifierPrefix: string) => string) {}

  nextId(): string {
    return `i${++this.count}`
  }
}

/** The useId() prefix of an island: the same on the server and in the browser. */
export const islandIdPrefix = (id: string) => `${id}-`

export const IslandContext = createContext<IslandCollector | null>(null)

declare module 'react' {
  namespace JSX {
    interface IntrinsicElements {
      'sightline-island': React.DetailedHTMLProps<React.HTMLAttributes<HTMLElement>, HTMLElement> & {
        'data-name': string
        'data-id': string
        'data-hydrate'?: 'visible'
      }
    }
  }
}

/** JSON that is safe inside a <script> element: nothing in it can close the element or open a comment. */
export function scriptSafeJson(value: unknown): string {
  return JSON.stringify(value)
    .replace(/</g, '\\u003c')
    .replace(/>/g, '\\u003e')
    .replace(/&/g, '\\u0026')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029')
}

/**
 * When an island hydrates: 'load' (the default) as the page's script runs; 'visible' once it comes near the viewport
 * (islands/boot.ts), so a long page of them (a dashboard's widgets) spends no time on what nobody has scrolled to.
 * Until then its server HTML is all there is, which is why such an island must read well without script.
 */
export interface IslandOptions {
  hydrate?: 'load' | 'visible'
}

/**
 * Marks a component as an island: on the server it renders inside a `<sightline-island>` container (React's
 * hydrateRoot needs one) with its props beside it as JSON, and the page loads its script; in the browser it is the
 * plain component. Props must be JSON-serialisable.
 */
export function island<P extends object>(name: string, Component: ComponentType<P>, o: IslandOptions = {}) {
  function Island(props: P): JSX.Element {
    const collector = useContext(IslandContext)
    if (!collector) return <Component {...props} />
    collector.names.add(name)
    const id = collector.nextId()
    return (
      <>
        <script type="application/json" data-island-props={id} dangerouslySetInnerHTML={{ __html: scriptSafeJson(props) }} />
        <sightline-island data-name={name} data-id={id} data-hydrate={o.hydrate === 'visible' ? 'visible' : undefined} style={{ display: 'contents' }}
          dangerouslySetInnerHTML={{ __html: collector.renderRoot(<Component {...props} />, islandIdPrefix(id)) }} />
      </>
    )
  }
  Island.displayName = `Island(${name})`
  Island.islandName = name
  Island.Component = Component
  return Island
}
