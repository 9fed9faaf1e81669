import { createRequire } from 'node:module'
import path from 'node:path'

/**
 * The fonts pictures and PDFs are drawn with, shipped from npm (dejavu-fonts-ttf) so text looks the same on every
 * machine: DejaVu Sans covers Latin, Greek, Cyrillic and more. Scripts it lacks (CJK, Thai, Devanagari …) fall back to
 * the machine's own fonts, loaded only for a drawing that needs them (scanning them costs a render several ms).
 */
const require = createRequire(import.meta.url)
const TTF = path.join(path.dirname(require.resolve('dejavu-fonts-ttf/package.json')), 'ttf')

export const FONT_FAMILY = 'DejaVu Sans'

export const FONT_FILES = {
  regular: path.join(TTF, 'DejaVuSans.ttf'),
  bold: path.join(TTF, 'DejaVuSans-Bold.ttf'),
  oblique: path.join(TTF, 'DejaVuSans-Oblique.ttf'),
  boldOblique: path.join(TTF, 'DejaVuSans-BoldOblique.ttf'),
  mono: path.join(TTF, 'DejaVuSansMono.ttf'),
} as const

/** Whether a text holds characters beyond what DejaVu Sans draws (its blocks up to Armenian, and its symbols). */
export const needsSystemFonts = (text: string) => /[^\u0000-\u058f\u1e00-\u2bff\ufb00-\ufb4f\ufffd]/u.test(text)
