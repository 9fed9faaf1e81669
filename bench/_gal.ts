import fs from 'node:fs'
import { renderVisualizationSvg } from '../src/visualizations/render.server.ts'
import { GALLERY } from '../test/visualizations/gallery.ts'
for (const p of GALLERY) {
  const out = renderVisualizationSvg(p.vis, p.data, p.size ?? { width: 800, height: 400 }, p.view)
  fs.writeFileSync(`/tmp/g-${p.name}.${out.startsWith('<svg') ? 'svg' : 'html'}`, out)
}
