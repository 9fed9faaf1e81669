import fs from 'node:fs'
import fontkit from '@pdf-lib/fontkit'
import { concatTransformationMatrix, drawObject, PDFDocument, popGraphicsState, pushGraphicsState, rgb, type PDFFont, type PDFPage } from 'pdf-lib'
import { bodyRuns, COLORS, type Run } from './card-text.ts'
import { CARD, cardBody } from './dashboard-svg.ts'
import { svgSize } from './draw.ts'
import { FONT_FILES } from './fonts.ts'
import { GRID_PX, gridBoxes, paginate, type Box } from './layout.ts'
import { svgToPdfImage, type Picture } from './raster.ts'
import { svgToPdfContent, Unsupported } from './svg-pdf.ts'
import type { DrawnDashboard, PdfOptions } from './types.ts'

/** Paper sizes in PDF points (1/72 in), portrait. */
export const PAPER_POINTS = { a4: [595.28, 841.89], letter: [612, 792] } as const

const MARGIN = 28
const HEADER = 30
const FOOTER = 18

export interface DashboardPdfOptions extends PdfOptions {
  /**
   * The charts already rasterised for the same send (src/rendering/raster.ts `chartPictures` with `forPdf`): used, not
   * drawn again, for the charts that are not drawn as vectors.
   */
  pictures?: ReadonlyMap<number, Picture>
  /** When the drawing was made, for the footer (now by default). */
  drawnAt?: Date
}

const color = (hex: string) => rgb(parseInt(hex.slice(1, 3), 16) / 255, parseInt(hex.slice(3, 5), 16) / 255, parseInt(hex.slice(5, 7), 16) / 255)

interface Pens {
  doc: PDFDocument
  pictures?: ReadonlyMap<number, Picture>
  regular: PDFFont
  bold: PDFFont
}

/**
 * The dashboard as a PDF on `paper` in `orientation`: its name on the first page, its widgets laid out as the page's
 * grid shrunk to the paper's width, a page per what fits (a card is never split), charts as vector paths and text
 * where svg-pdf.ts draws them (else as pictures at twice their size), text boxes as formatted text, counters and
 * tables as text. Fonts are the shipped ones, embedded as subsets.
 */
export async function dashboardPdf(d: DrawnDashboard, opts: DashboardPdfOptions): Promise<Uint8Array> {
  const doc = await PDFDocument.create()
  doc.registerFontkit(fontkit)
  doc.setTitle(d.name)
  doc.setCreator('Sightline')
  doc.setProducer('Sightline')
  const drawnAt = opts.drawnAt ?? new Date()
  doc.setCreationDate(drawnAt)
  const pens: Pens = {
    doc, pictures: opts.pictures,
    regular: await doc.embedFont(fs.readFileSync(FONT_FILES.regular), { subset: true }),
    bold: await doc.embedFont(fs.readFileSync(FONT_FILES.bold), { subset: true }),
  }
  const [w, h] = PAPER_POINTS[opts.paper]
  const [width, height] = opts.orientation === 'landscape' ? [h, w] : [w, h]
  const scale = (width - 2 * MARGIN) / GRID_PX.width
  const gridTop = height - MARGIN - HEADER
  const pages = paginate(gridBoxes(d.widgets), (gridTop - MARGIN - FOOTER) / scale)
  if (!pages.length) pages.push([])
  for (const [index, boxes] of pages.entries()) {
    const page = doc.addPage([width, height])
    const title = index === 0 ? d.name : `${d.name} (continued)`
    page.drawText(title, { x: MARGIN + CARD.inset * scale, y: height - MARGIN - 16, size: index === 0 ? 16 : 11, font: pens.bold, color: color(COLORS.title) })
    const footer = `${drawnAt.toISOString().slice(0, 16).replace('T', ' ')} UTC · ${index + 1} / ${pages.length}`
    page.drawText(footer, { x: width - MARGIN - pens.regular.widthOfTextAtSize(footer, 8), y: MARGIN, size: 8, font: pens.regular, color: color(COLORS.muted) })
    // grid pixels to points: x from the left margin, y down from the grid's top
    const at = { x: (px: number) => MARGIN + px * scale, y: (px: number) => gridTop - px * scale, scale }
    for (const box of boxes) await drawCard(pens, page, box, at)
  }
  return doc.save()
}

type Place = { x: (px: number) => number; y: (px: number) => number; scale: number }

/** Pixels per SVG unit of a chart in the PDF: printed at a half to two thirds of its size, that is 200–300 dpi. */
const PICTURE_SCALE = 1.5

/**
 * A chart drawn as an image, its pixels compressed by Node's zlib and handed to the PDF as they are (pdf-lib's own
 * PNG reading and compressing, in JavaScript, would take several times as long as drawing the chart).
 */
async function drawPicture(doc: PDFDocument, page: PDFPage, picture: Picture | undefined, svg: string, at: { x: number; y: number; width: number; height: number }): Promise<void> {
  const image = picture?.pdfImage ? { width: picture.width, height: picture.height, data: picture.pdfImage } : await svgToPdfImage(svg, { scale: PICTURE_SCALE })
  const stream = doc.context.stream(image.data, {
    Type: 'XObject', Subtype: 'Image', Width: image.width, Height: image.height, ColorSpace: 'DeviceRGB', BitsPerComponent: 8, Filter: 'FlateDecode',
  })
  const name = page.node.newXObject('Image', doc.context.register(stream))
  page.pushOperators(pushGraphicsState(), concatTransformationMatrix(at.width, 0, 0, at.height, at.x, at.y), drawObject(name), popGraphicsState())
}

async function drawCard(pens: Pens, page: PDFPage, box: Box, at: Place): Promise<void> {
  const { widget } = box
  const inner = { x: box.x + CARD.inset, y: box.y + CARD.inset, width: box.width - 2 * CARD.inset, height: box.height - 2 * CARD.inset }
  page.drawRectangle({
    x: at.x(inner.x), y: at.y(inner.y + inner.height), width: inner.width * at.scale, height: inner.height * at.scale,
    color: rgb(1, 1, 1), borderColor: color(COLORS.border), borderWidth: 0.5,
  })
  const body = cardBody(box)
  if (widget.kind === 'text') {
    body.y -= CARD.title - CARD.padding
    body.height += CARD.title - CARD.padding
  } else {
    const title = widget.kind === 'restricted' ? 'Restricted' : widget.title
    drawRun(pens, page, { kind: 'text', x: 0, y: 26, text: title, size: 15, bold: true, color: COLORS.title }, inner.x + CARD.padding, inner.y, at, body.width)
  }
  if (widget.kind === 'chart' && widget.svg) {
    const size = svgSize(widget.svg) ?? { width: body.width, height: body.height }
    const k = Math.min(1, body.width / size.width, body.height / size.height)
    if (drawVector(pens, page, widget.svg, { x: at.x(body.x), top: at.y(body.y), scale: k * at.scale })) return
    await drawPicture(pens.doc, page, pens.pictures?.get(widget.widgetId), widget.svg, { x: at.x(body.x), y: at.y(body.y + size.height * k), width: size.width * k * at.scale, height: size.height * k * at.scale })
    return
  }
  for (const run of bodyRuns(widget, body.width, body.height)) drawRun(pens, page, run, body.x, body.y, at)
}

/** The chart as vector paths and text when it is made of what svg-pdf.ts draws; false (nothing drawn) otherwise. */
function drawVector(pens: Pens, page: PDFPage, svg: string, at: { x: number; top: number; scale: number }): boolean {
  try {
    const content = svgToPdfContent({ doc: pens.doc, page, regular: pens.regular, bold: pens.bold }, svg, at)
    // a content stream of its own after the page's (the card under it is drawn already); compressed as it is made
    page.node.addContentStream(pens.doc.context.register(pens.doc.context.flateStream(content)))
    return true
  } catch (error) {
    if (error instanceof Unsupported) return false
    throw error
  }
}

function drawRun(pens: Pens, page: PDFPage, run: Run, ox: number, oy: number, at: Place, maxWidth?: number): void {
  if (run.kind === 'rule') {
    page.drawRectangle({ x: at.x(ox + run.x), y: at.y(oy + run.y), width: run.width * at.scale, height: 0.5, color: color(run.color) })
    return
  }
  const font = run.bold ? pens.bold : pens.regular
  const size = run.size * at.scale
  let text = run.text
  if (maxWidth !== undefined) {
    while (text.length > 1 && font.widthOfTextAtSize(text, size) > maxWidth * at.scale) text = text.slice(0, -2) + '…'
  }
  const width = font.widthOfTextAtSize(text, size)
  const shift = run.anchor === 'middle' ? width / 2 : run.anchor === 'end' ? width : 0
  page.drawText(text, { x: at.x(ox + run.x) - shift, y: at.y(oy + run.y), size, font, color: color(run.color) })
}
