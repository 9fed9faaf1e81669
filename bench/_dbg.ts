import * as Plot from '@observablehq/plot'
import { parseHTML } from 'linkedom'
const { document } = parseHTML('<!doctype html><html><body></body></html>')
const words = [{ text: 'a', x: 10, y: 10, fontSize: 20, rotate: 0, color: '#f00' }, { text: 'b', x: 50, y: 50, fontSize: 30, rotate: -90, color: '#0f0' }]
for (const opts of [{ x: 'x', y: 'y', text: 'text' }, { x: 'x', y: 'y', text: 'text', fontSize: 'fontSize' }, { x: 'x', y: 'y', text: 'text', rotate: 'rotate' }, { x: 'x', y: 'y', text: 'text', fill: 'color' }]) {
  const svg = Plot.plot({ document: document as any, width: 100, height: 100, x: { type: 'identity', axis: null }, y: { type: 'identity', axis: null }, marks: [Plot.text(words, opts as any)] }) as any
  console.log(JSON.stringify(opts), (svg.outerHTML.match(/<text/g) || []).length)
}
