import { deflateSync } from 'node:zlib'
import { Resvg, renderAsync, type RenderedImage, type ResvgRenderOptions } from '@resvg/resvg-js'
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
 * resvg-js keeps a picture's pixels (width × height × 4 bytes: 3 MB for a chart at scale 2) in native memory it does
 * not tell V8 about, held by a small JavaScript object and freed only when a full collection finalises that object.
 * A worker drawing report after report makes little JavaScript garbage, so V8 saw no reason to collect, and the
 * pixels of every chart drawn since piled up (bench/report-memory.ts `png`: 255–360 MB above the baseline after
 * four to six 18-chart reports). So each picture carries a buffer of the same size, which V8 does count
 * (as external memory) for as long as the picture lives: past its soft limit (64 MB more than after the last full
 * collection) it collects, and the lingering pixels are freed with their buffers. The buffer is declared at four times
 * the pixels' size, so V8 collects after about 16 MB of lingering pixels instead of 64 (a report of 18 charts peaked
 * 60 MB lower, bench/exports.ts, for about a quarter more CPU; eight times cost twice the CPU for 5 MB less). It is
 * never written nor read (nor zeroed), so the kernel maps its pages lazily and it costs no resident memory of its own.
 */
function declarePixels(image: RenderedImage): RenderedImage {
  Object.defineProperty(image, PIXEL_COST, { value: Buffer.allocUnsafeSlow(image.width * image.height * 4 * PIXEL_WEIGHT) })
  return image
}
const PIXEL_COST = Symbol('pixel cost')
/** How many times its real size a picture's pixels count for V8 (see declarePixels). */
const PIXEL_WEIGHT = 4

/** Rasterised on libuv's thread pool (the event loop stays free), its pixels declared to V8. */
async function rasterise(svg: string, opts: PngOptions): Promise<RenderedImage> {
  return declarePixels(await renderAsync(svg, options(svg, opts)))
}

/**
 * An SVG rasterised to PNG with the shipped fonts (src/rendering/fonts.ts): the server's chart drawing as a picture.
 * Synchronous, for scripts and tests; a server uses `svgToPngAsync`, which keeps its event loop free.
 */
export function svgToPng(svg: string, opts: PngOptions = {}): Buffer {
  return declarePixels(new Resvg(svg, options(svg, opts)).render()).asPng()
}

/**
 * The same, drawn on libuv's thread pool: the request's process goes on answering others meanwhile, and the
 * renderer's parsed SVG and fonts are released as soon as the picture is made (only the pixels wait for V8, above).
 */
export async function svgToPngAsync(svg: string, opts: PngOptions = {}): Promise<Buffer> {
  return (await rasterise(svg, opts)).asPng()
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
  const image = await rasterise(svg, opts)
  const png = image.asPng()
  return { width: image.width, height: image.height, png, ...(opts.forPdf ? { pdfImage: deflateSync(rgbOf(image.pixels), { level: 3 }) } : {}) }
}

/**
 * The pictures of a drawn dashboard's charts, by widget id (scale 2 by default), strictly one at a time, as a report's
 * send draws them: one chart's pixels in flight at once (the exports' slots, src/rendering/slots.ts, bound how many
 * drawings run side by side), each dropped as soon as its PNG is made.
 */
export async function chartPictures(
  widgets: readonly { widgetId: number; kind: string; svg?: string }[], opts: PngOptions & { forPdf?: boolean } = {},
): Promise<Map<number, Picture>> {
  const pictures = new Map<number, Picture>()
  for (const w of widgets) {
    if (w.kind === 'chart' && w.svg) pictures.set(w.widgetId, await svgToPicture(w.svg, opts))
  }
  return pictures
}

/** An SVG rasterised to RGB pixels (3 bytes each, row by row), compressed: a PDF image's data. */
export async function svgToPdfImage(svg: string, opts: PngOptions = {}): Promise<{ width: number; height: number; data: Buffer }> {
  const image = await rasterise(svg, opts)
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
