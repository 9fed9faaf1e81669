import fs from 'node:fs'
import fontkit from '@pdf-lib/fontkit'
import { PDFDocument, rgb } from 'pdf-lib'
import { FONT_FILES } from './fonts.ts'
import { svgToPng } from './raster.ts'
import type { DrawnDashboard, PdfOptions } from './types.ts'

/** Paper sizes in PDF points (1/72 in), portrait. */
export const PAPER_POINTS = { a4: [595.28, 841.89], letter: [612, 792] } as const

/** The dashboard as a PDF: its name, then its widgets on pages of the chosen paper. */
export async function dashboardPdf(d: DrawnDashboard, opts: PdfOptions): Promise<Uint8Array> {
  const doc = await PDFDocument.create()
  doc.registerFontkit(fontkit)
  doc.setTitle(d.name)
  const font = await doc.embedFont(fs.readFileSync(FONT_FILES.regular), { subset: true })
  const [w, h] = PAPER_POINTS[opts.paper]
  const [width, height] = opts.orientation === 'landscape' ? [h, w] : [w, h]
  let page = doc.addPage([width, height])
  page.drawText(d.name, { x: 36, y: height - 48, size: 16, font, color: rgb(0.1, 0.1, 0.1) })
  let y = height - 72
  for (const widget of d.widgets) {
    if (y < 200) {
      page = doc.addPage([width, height])
      y = height - 36
    }
    page.drawText(widget.title || widget.kind, { x: 36, y: y - 12, size: 10, font })
    y -= 24
    if (widget.svg) {
      const image = await doc.embedPng(svgToPng(widget.svg))
      const scaled = image.scaleToFit(width - 72, 160)
      page.drawImage(image, { x: 36, y: y - scaled.height, width: scaled.width, height: scaled.height })
      y -= scaled.height + 12
    } else if (widget.message) {
      page.drawText(widget.message, { x: 36, y: y - 12, size: 9, font })
      y -= 24
    }
  }
  return doc.save()
}
