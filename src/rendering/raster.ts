import { deflateSync } from 'node:zlib'
import { Resvg, renderAsync, type ResvgRenderOptions } from '@resvg/resvg-js'
import { FONT_FAMILY, FONT_FILES, needsSystemFonts } from './fonts.ts'

export interface PngOptions {
  /** Pixels per SVG unit: 2 (the default) is sharp on high-density screens and in mail. */
  scale?: number
  /** The background behind transparent parts (charts are drawn on none): white by default. */
  background?: string
}

// regular and bold: what charts and cards use (each file loaded costs every render a few ms)
const FILES = [FONT_FILES.regular, FONT_FILES.bold]

function options(svg: string, opts: PngOptions): ResvgRenderOptions {
  return {
    background: opts.background ?? 'white',
    fitTo: { mode: 'zoom', value: opts.scale ?? 2 },
    font: { fontFiles: FILES, loadSystemFonts: needsSystemFonts(svg), defaultFontFamily: FONT_FAMILY, sansSerifFamily: FONT_FAMILY },
    logLevel: 'off',
  }
}

/**
 * An SVG rasterised to PNG with the shipped fonts (src/rendering/fonts.ts): the server's chart drawing as a picture.
 * Synchronous, for scripts and tests; a server uses `svgToPngAsync`, which keeps its event loop free.
 */
export function svgToPng(svg: string, opts: PngOptions = {}): Buffer {
  return new Resvg(svg, options(svg, opts)).render().asPng()
}

/**
 * The same, drawn on libuv's thread pool: the request's process goes on answering others meanwhile, and the
 * renderer's own memory (its parsed SVG and fonts) is released as soon as the picture is made rather than when the
 * garbage collector happens to finalise a JavaScript object, which keeps a report's peak memory low.
 */
export async function svgToPngAsync(svg: string, opts: PngOptions = {}): Promise<Buffer> {
  return (await renderAsync(svg, options(svg, opts))).asPng()
}

/** A chart rasterised once: its PNG (for mail, chat, files) and, when asked, its pixels ready for a PDF. */
export interface Picture {
  width: number
  height: number
  png: Buffer
  /** RGB pixels, zlib-compressed: a PDF image's data as is (src/rendering/pdf.ts). */
  pdfImage?: Buffer
}

/**
 * An SVG rasterised once for every use a send makes of it: the PNG its mail carries and, with `forPdf`, the PDF's
 * image from the same pixels, so a chart is never drawn twice. Only compressed bytes are kept (a few dozen KB a chart).
 */
export async function svgToPicture(svg: string, opts: PngOptions & { forPdf?: boolean } = {}): Promise<Picture> {
  const image = await renderAsync(svg, options(svg, opts))
  const png = image.asPng()
  return { width: image.width, height: image.height, png, ...(opts.forPdf ? { pdfImage: deflateSync(rgbOf(image.pixels), { level: 3 }) } : {}) }
}

/** Charts drawn at once: two keep both cores of a small server busy without holding many pixel buffers. */
const AT_ONCE = 2

/** The pictures of a drawn dashboard's charts, by widget id (scale 2 by default), two at a time. */
export async function chartPictures(
  widgets: readonly { widgetId: number; kind: string; svg?: string }[], opts: PngOptions & { forPdf?: boolean } = {},
): Promise<Map<number, Picture>> {
  const charts = widgets.filter((w) => w.kind === 'chart' && w.svg)
  const pictures = new Map<number, Picture>()
  let next = 0
  const lane = async () => {
    while (next < charts.length) {
      const w = charts[next++]
      pictures.set(w.widgetId, await svgToPicture(w.svg!, opts))
    }
  }
  await Promise.all(Array.from({ length: AT_ONCE }, lane))
  // in the dashboard's order, whichever finished first
  return new Map(charts.map((w) => [w.widgetId, pictures.get(w.widgetId)!]))
}

/** An SVG rasterised to RGB pixels (3 bytes each, row by row), compressed: a PDF image's data. */
export async function svgToPdfImage(svg: string, opts: PngOptions = {}): Promise<{ width: number; height: number; data: Buffer }> {
  const image = await renderAsync(svg, options(svg, opts))
  return { width: image.width, height: image.height, data: deflateSync(rgbOf(image.pixels), { level: 3 }) }
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

/** A PNG's width and height, read from its header (bytes 16–23 of the IHDR chunk). */
export function pngSize(png: Uint8Array): { width: number; height: number } {
  const view = new DataView(png.buffer, png.byteOffset, png.byteLength)
  return { width: view.getUint32(16), height: view.getUint32(20) }
}
