import { describe, expect, it } from 'vitest'
import { bootScript, renderDocument } from '../http/index.ts'
import { useId } from 'react'
import { renderToString } from 'react-dom/server'
import { island, islandIdPrefix, scriptSafeJson } from './island.tsx'

const manifest = { css: '/static/app.css', boot: '/static/boot.js', islands: { Greeter: { file: '/static/Greeter.js', imports: ['/static/react.js'] } } }
const Greeter = island('Greeter', ({ name }: { name: string }) => <p>Hello {name}</p>)

describe('islands', () => {
  it('a page without islands ships no script at all', () => {
    const { html, nonce } = renderDocument(manifest, <p>static</p>)
    expect(nonce).toBeUndefined()
    expect(html).not.toContain('<script')
    expect(bootScript(manifest, new Set())).toEqual({ head: '', body: '', code: '' })
  })

  it('a page with an island loads exactly that island, preloads its imports, and carries its props', () => {
    const { html, nonce } = renderDocument(manifest, <main><Greeter name="Ada" /></main>)
    expect(html).toContain(`<script type="module" nonce="${nonce}">`)
    expect(html.match(/<script type="module"/g)).toHaveLength(1)
    expect(html).toContain('import i0 from "/static/Greeter.js"')
    expect(html).toContain('<link rel="modulepreload" href="/static/react.js">')
    expect(html).toContain('<sightline-island data-name="Greeter" data-id="i1"')
    expect(html).toContain('{"name":"Ada"}')
    expect(html).toContain('<p>Hello <!-- -->Ada</p>')
  })

  it('takes an island by its name from a script that holds several, and preloads that script once', () => {
    const bundled = { css: '/static/app.css', boot: '/static/all.js', islands: {
      Greeter: { file: '/static/all.js', imports: ['/static/chunk.js'], export: 'Greeter' },
      Other: { file: '/static/all.js', imports: ['/static/chunk.js'], export: 'Other' },
    } }
    const { code, head } = bootScript(bundled, new Set(['Greeter', 'Other']))
    expect(code).toBe('import{boot}from"/static/all.js";import {Greeter as i0} from "/static/all.js";import {Other as i1} from "/static/all.js";boot({"Greeter":i0,"Other":i1});')
    expect(head).toBe('<link rel="modulepreload" href="/static/all.js"><link rel="modulepreload" href="/static/chunk.js">')
  })

  it('renders each island as its own root, so useId() matches what the browser hydrates', () => {
    function Field() {
      const id = useId()
      return <label htmlFor={id}>Name<input id={id} /></label>
    }
    const Labelled = island('Labelled', Field)
    const { html } = renderDocument({ ...manifest, islands: { Labelled: { file: '/static/L.js', imports: [] } } },
      <main><p>before</p><Labelled /></main>)
    // the browser hydrates <Field/> as a root with the island's prefix: the same markup, so the same ids
    const inBrowser = renderToString(<Field />, { identifierPrefix: islandIdPrefix('i1') })
    expect(html).toContain(inBrowser)
    expect(inBrowser).toContain('i1-')
  })

  it('props cannot break out of their script element', () => {
    const json = scriptSafeJson({ x: '</script><script>alert(1)</script><!--' })
    expect(json).not.toContain('</script>')
    expect(json).not.toContain('<!--')
    expect(JSON.parse(json)).toEqual({ x: '</script><script>alert(1)</script><!--' })
  })
})
