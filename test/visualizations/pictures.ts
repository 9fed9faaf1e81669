/**
 * Pictures as tests, after Plot's own: each rendering is compared with its committed file in output/. A differing
 * one is written beside it as <name>-changed.svg (or .html) for a person to look at, and the test fails;
 * UPDATE_PICTURES=1 accepts the new picture. HTML renderings are saved as small standalone pages.
 */
import fs from 'node:fs'
import path from 'node:path'
import { parseHTML } from 'linkedom'

const OUTPUT = path.join(import.meta.dirname, 'output')

/** The file content for `markup`: SVG as is, HTML inside a minimal page. */
function fileContent(name: string, markup: string): { ext: string; content: string } {
  if (markup.startsWith('<svg')) return { ext: 'svg', content: `${markup}\n` }
  return { ext: 'html', content: `<!doctype html>\n<meta charset="utf-8">\n<title>${name}</title>\n<body style="margin:8px">${markup}</body>\n` }
}

/** Fails when `markup` differs from the committed picture `name`. */
export function expectPicture(name: string, markup: string): void {
  const { ext, content } = fileContent(name, markup)
  const file = path.join(OUTPUT, `${name}.${ext}`)
  const changed = path.join(OUTPUT, `${name}-changed.${ext}`)
  fs.mkdirSync(OUTPUT, { recursive: true })
  if (process.env.UPDATE_PICTURES === '1' || !fs.existsSync(file)) {
    fs.writeFileSync(file, content)
    fs.rmSync(changed, { force: true })
    return
  }
  if (fs.readFileSync(file, 'utf8') === content) {
    fs.rmSync(changed, { force: true })
    return
  }
  fs.writeFileSync(changed, content)
  throw new Error(`${name} changed: compare ${path.relative(process.cwd(), changed)} with ${path.basename(file)} (UPDATE_PICTURES=1 accepts it)`)
}

/** The rendered markup as a queryable DOM. */
export function dom(markup: string): Document {
  return parseHTML(`<!doctype html><html><body>${markup}</body></html>`).document as unknown as Document
}

/** How many elements match `selector`. */
export function count(doc: Document, selector: string): number {
  return doc.querySelectorAll(selector).length
}

/** Texts of the elements matching `selector`. */
export function texts(doc: Document, selector: string): string[] {
  return [...doc.querySelectorAll(selector)].map((e) => e.textContent ?? '')
}
