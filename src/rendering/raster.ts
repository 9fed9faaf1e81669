import { Resvg } from '@resvg/resvg-js'
import { FONT_FAMILY, FONT_FILES, needsSystemFonts } from './fonts.ts'

export interface PngOptions {
  /** Pixels per SVG unit: 2 (the default) is sharp on high-density screens and in mail. */
  scale?: number
  /** The background behind transparent parts (charts are drawn on none): white by default. */
  background?: string
}

const FILES = Object.values(FONT_FILES)

/**
 * An SVG rasterised to PNG with the shipped fonts (src/rendering/fonts.ts): the server's chart drawing as a picture
 * for mail, chat and the dashboard's PNG export. Synchronous: a chart takes a few milliseconds.
 */
export function svgToPng(svg: string, opts: PngOptions = {}): Buffer {
  return rasterise(svg, opts).asPng()
}

/** A chart rasterised once: its PNG (for mail, chat, files) and its RGB pixels (for a PDF's image). */
export interface Picture {
  width: number
  height: number
  png: Buffer
  rgb: () => Buffer
}

/**
 * An SVG rasterised once for every use a report makes of it: the PNG its mail carries and, from the same pixels, the
 * PDF's image (src/rendering/pdf.ts), so a chart is never drawn twice in one send.
 */
export function svgToPicture(svg: string, opts: PngOptions = {}): Picture {
  const image = rasterise(svg, opts)
  let rgb: Buffer | undefined
  return { width: image.width, height: image.height, png: image.asPng(), rgb: () => (rgb ??= rgbOf(image.pixels)) }
}

/** The pictures of a drawn dashboard's charts, by widget id (scale 2 by default, as `svgToPng`). */
export function chartPictures(widgets: readonly { widgetId: number; kind: string; svg?: string }[], opts: PngOptions = {}): Map<number, Picture> {
  return new Map(widgets.flatMap((w) => (w.kind === 'chart' && w.svg ? [[w.widgetId, svgToPicture(w.svg, opts)] as const] : [])))
}

/** An SVG rasterised to RGB pixels (3 bytes each, row by row): what a PDF's image takes without a PNG round trip. */
export function svgToRgb(svg: string, opts: PngOptions = {}): { width: number; height: number; rgb: Buffer } {
  const image = rasterise(svg, opts)
  return { width: image.width, height: image.height, rgb: rgbOf(image.pixels) }
}

function rgbOf(rgba: Buffer): Buffer {
  const rgb = Buffer.allocUnsafe((rgba.length / 4) * 3)
  // the background is opaque, so alpha is 255 everywhere and can be dropped
  for (let i = 0, j = 0; i < rgba.length; i += 4, j += 3) {
    rgb[j] = rgba[i]
    rgb[j + 1] = rgba[i + 1]
    rgb[j + 2] = rgba[i + 2]
  }
  return rgb
}

function rasterise(svg: string, opts: PngOptions) {
  const scale = opts.scale ?? 2
  const resvg = new Resvg(svg, {
    background: opts.background ?? 'white',
    fitTo: { mode: 'zoom', value: scale },
    font: {
      fontFiles: FILES,
      loadSystemFonts: needsSystemFonts(svg),
      defaultFontFamily: FONT_FAMILY,
      sansSerifFamily: FONT_FAMILY,
      monospaceFamily: 'DejaVu Sans Mono',
    },
    logLevel: 'off',
  })
  return resvg.render()
}

/** A PNG's width and height, read from its header (bytes 16–23 of the IHDR chunk). */
export function pngSize(png: Uint8Array): { width: number; height: number } {
  const view = new DataView(png.buffer, png.byteOffset, png.byteLength)
  return { width: view.getUint32(16), height: view.getUint32(20) }
}
