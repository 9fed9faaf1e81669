import fs from 'node:fs'
import fontkit from '@pdf-lib/fontkit'
import { FONT_FILES } from './fonts.ts'

type Face = { unitsPerEm: number; glyphForCodePoint(cp: number): { advanceWidth: number } }

const faces = new Map<'regular' | 'bold', Face>()
const advances = new Map<string, number>()

function face(weight: 'regular' | 'bold'): Face {
  let f = faces.get(weight)
  if (!f) {
    f = fontkit.create(fs.readFileSync(FONT_FILES[weight])) as unknown as Face
    faces.set(weight, f)
  }
  return f
}

/** A text's width in the shipped font at `size` (points or pixels alike), from its glyphs' advances. */
export function textWidth(text: string, size: number, weight: 'regular' | 'bold' = 'regular'): number {
  const f = face(weight)
  let units = 0
  for (const char of text) {
    const key = weight + char
    let advance = advances.get(key)
    if (advance === undefined) {
      advance = f.glyphForCodePoint(char.codePointAt(0)!).advanceWidth || f.unitsPerEm * 0.6
      advances.set(key, advance)
    }
    units += advance
  }
  return (units / f.unitsPerEm) * size
}

/** A text cut to `width` with an ellipsis when it runs longer. */
export function fitText(text: string, width: number, size: number, weight: 'regular' | 'bold' = 'regular'): string {
  if (textWidth(text, size, weight) <= width) return text
  const chars = [...text]
  while (chars.length && textWidth(chars.join('') + '…', size, weight) > width) chars.pop()
  return chars.join('') + '…'
}

/** A paragraph broken into lines no wider than `width` (a word longer than a line is cut). */
export function wrapText(text: string, width: number, size: number, weight: 'regular' | 'bold' = 'regular'): string[] {
  const lines: string[] = []
  let line = ''
  for (const word of text.split(/\s+/).filter(Boolean)) {
    const next = line ? `${line} ${word}` : word
    if (textWidth(next, size, weight) <= width) {
      line = next
      continue
    }
    if (line) lines.push(line)
    line = textWidth(word, size, weight) <= width ? word : fitText(word, width, size, weight)
  }
  if (line) lines.push(line)
  return lines
}
