import { createContext, useContext, type ComponentType, type JSX } from 'react'

/** Collects the islands a page rendered, so the page loads exactly their scripts and no others. */
export class IslandCollector {
  readonly names = new Set<string>()
  private count = 0
  nextId(): string {
    return `i${++this.count}`
  }
}

export const IslandContext = createContext<IslandCollector | null>(null)

declare module 'react' {
  namespace JSX {
    interface IntrinsicElements {
      'sightline-island': React.DetailedHTMLProps<React.HTMLAttributes<HTMLElement>, HTMLElement> & {
        'data-name': string
        'data-id': string
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
 * Marks a component as an island: on the server it renders inside a `<sightline-island>` container (React's
 * hydrateRoot needs one) with its props beside it as JSON, and the page loads its script; in the browser it is the
 * plain component. Props must be JSON-serialisable.
 */
export function island<P extends object>(name: string, Component: ComponentType<P>) {
  function Island(props: P): JSX.Element {
    const collector = useContext(IslandContext)
    if (!collector) return <Component {...props} />
    collector.names.add(name)
    const id = collector.nextId()
    return (
      <>
        <script type="application/json" data-island-props={id} dangerouslySetInnerHTML={{ __html: scriptSafeJson(props) }} />
        <sightline-island data-name={name} data-id={id} style={{ display: 'contents' }}>
          <Component {...props} />
        </sightline-island>
      </>
    )
  }
  Island.displayName = `Island(${name})`
  Island.islandName = name
  Island.Component = Component
  return Island
}
