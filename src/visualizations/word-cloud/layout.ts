/**
 * A deterministic word cloud layout. d3-cloud measures glyphs on a browser canvas, which the server does not have;
 * this layout estimates each word's box from its length (format/text.ts) and places words, largest first, at the
 * first free spot on an Archimedean spiral from the centre. Every fourth word (chosen by a hash of the word, so
 * the choice is stable) is turned upright. Same words and size, same picture, on server and browser.
 */
import { textWidth } from '../format/text.ts'
import type { WordCount } from './prepare.ts'

export interface PlacedWord extends WordCount {
  x: number
  y: number
  fontSize: number
  rotate: 0 | -90
}

interface Box {
  x0: number
  y0: number
  x1: number
  y1: number
}

function hash(text: string): number {
  let h = 2166136261
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 16777619)
  return h >>> 0
}

const CELL = 32

/** Words that fit in `width` × `height`, with their centre, size and rotation; words that do not fit are left out. */
export function layoutWords(words: WordCount[], width: number, height: number): PlacedWord[] {
  if (!words.length) return []
  const max = words[0].count
  const min = words[words.length - 1].count
  const biggest = Math.max(14, Math.min(height / 5, width / 8, 64))
  const smallest = Math.min(11, biggest)
  // boxes are looked up through a coarse grid, so each test only meets its neighbours
  const grid = new Map<number, Box[]>()
  const cells = (b: Box, visit: (key: number) => boolean | void) => {
    for (let gx = Math.floor(b.x0 / CELL); gx <= Math.floor(b.x1 / CELL); gx++)
      for (let gy = Math.floor(b.y0 / CELL); gy <= Math.floor(b.y1 / CELL); gy++)
        if (visit(gx * 100_003 + gy)) return true
    return false
  }
  const collides = (b: Box) => cells(b, (key) => grid.get(key)?.some((o) => b.x0 < o.x1 && b.x1 > o.x0 && b.y0 < o.y1 && b.y1 > o.y0))
  const placed: PlacedWord[] = []
  const aspect = width / height
  const limit = Math.hypot(width, height) / 2
  words.forEach((word, i) => {
    const t = max === min ? 1 : Math.sqrt((word.count - min) / (max - min))
    const fontSize = Math.round(smallest + (biggest - smallest) * t)
    const rotate = i > 0 && hash(word.text) % 4 === 0 ? -90 : 0
    const w = textWidth(word.text, fontSize) + 4
    const h = fontSize * 1.1
    const [bw, bh] = rotate ? [h, w] : [w, h]
    for (let step = 0; ; step++) {
      const angle = step * 0.35
      const radius = step * 0.9
      if (radius > limit) return
      const x = width / 2 + radius * Math.cos(angle) * Math.max(1, aspect)
      const y = height / 2 + radius * Math.sin(angle) / Math.max(1, 1 / aspect)
      const box = { x0: x - bw / 2, y0: y - bh / 2, x1: x + bw / 2, y1: y + bh / 2 }
      if (box.x0 < 0 || box.y0 < 0 || box.x1 > width || box.y1 > height || collides(box)) continue
      cells(box, (key) => {
        const list = grid.get(key)
        if (list) list.push(box)
        else grid.set(key, [box])
      })
      placed.push({ ...word, x, y, fontSize, rotate })
      return
    }
  })
  return placed
}
