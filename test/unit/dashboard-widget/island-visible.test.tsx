import { describe, expect, it } from 'vitest'
import { serverDrawing } from '../../../islands/lib/dashboard-widget/types.ts'
import { renderDocument } from '../../../src/http/index.ts'
import { island } from '../../../src/shared/island.tsx'

const manifest = { css: '/static/app.css', boot: '/static/boot.js', islands: { Card: { file: '/static/Card.js', imports: [] }, Now: { file: '/static/Now.js', imports: [] } } }

describe('islands hydrated when visible', () => {
  it('are marked for the boot script to wait for; islands by default are not', () => {
    const Card = island('Card', ({ drawing }: { drawing: { html?: string } }) => <article dangerouslySetInnerHTML={{ __html: drawing.html ?? '' }} />, { hydrate: 'visible' })
    const Now = island('Now', () => <p>now</p>)
    const { html } = renderDocument(manifest, <main><Card drawing={serverDrawing('<svg><rect/></svg>')} /><Now /></main>)
    expect(html).toContain('<sightline-island data-name="Card" data-id="i1" data-hydrate="visible"')
    expect(html).toMatch(/<sightline-island data-name="Now" data-id="i2" style/)
    // the server's drawing is in the card, once: its props leave it out
    expect(html).toContain('<article><svg><rect/></svg></article>')
    expect(html.match(/<rect/g)).toHaveLength(1)
    expect(html).toContain('{"drawing":{}}')
  })
})
