/**
 * The word cloud as SVG: the laid-out words drawn by Plot with identity scales, coloured from the palette by rank.
 * Words that find no free spot are left out; the largest always fit, as they are placed first.
 */
import * as Plot from '@observablehq/plot'
import { emptySvg, frameSvg, placePlot } from '../frame.ts'
import { PLOT_STYLE, seriesColor } from '../theme.ts'
import type { RenderEnv, Size } from '../types.ts'
import { layoutWords } from './layout.ts'
import type { WordCloudOptions } from './options.ts'
import type { WordCloudData } from './prepare.ts'

export function wordCloudSvg(data: WordCloudData, _options: WordCloudOptions, size: Size, env: RenderEnv): string {
  if (!data.words.length) return emptySvg(size, 'word-cloud')
  return frameSvg(size, {
    label: `Word cloud of ${data.words.length} words`,
    type: 'word-cloud',
    note: data.distinct > data.words.length ? `The ${data.words.length} most frequent of ${data.distinct} words` : null,
    draw: (area) => {
      const words = layoutWords(data.words, area.width, area.height).map((w, i) => ({ ...w, color: seriesColor(i % 10) }))
      const plot = Plot.plot({
        document: env.document,
        width: area.width, height: area.height, margin: 0,
        style: PLOT_STYLE,
        x: { type: 'identity', axis: null }, y: { type: 'identity', axis: null },
        marks: [
          Plot.text(words, {
            x: 'x', y: 'y', text: 'text', fontSize: (w) => w.fontSize, rotate: 'rotate', fill: 'color',
            fontWeight: 600, lineAnchor: 'middle', title: (w) => `${w.text}: ${w.count}`,
          }),
        ],
      }) as unknown as Element
      return placePlot(plot, area)
    },
  })
}
