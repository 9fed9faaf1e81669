/**
 * A dashboard of 20 charts whose queries all have parameters: ten counters on parameter N, ten column and line charts
 * on parameter M. Changing N (< 1 s to have all ten refreshed), with one real Sightline process (web and worker) on
 * its own embedded PostgreSQL, which is also the engine the trivial queries run on. In headless Chromium: the time
 * from Apply (Ctrl+Enter in the parameters panel) to the last of the ten counters showing its new number, over several
 * values (each new, so every widget runs its query: no stored result of that text yet); and the JavaScript such a
 * dashboard downloads, gzipped, once all 20 are drawn and again after the Applies (< 150 KB: widgets redraw with the
 * server's drawing, `GET api/widgets/{id}/drawing`, so no chart code is loaded).
 * `npm run build` first. `NODE_ENV=production npx tsx bench/dashboard-parameters.ts`; prints the figures and writes
 * bench/dashboard-parameters.json.
 */
import fs from 'node:fs'
import path from 'node:path'
import { gzipSync } from 'node:zlib'
import { chromium } from 'playwright-core'
import { ROOT } from './server.ts'
import { machine, percentile, pgSourceOptions, round, startBenchSightline } from './sightline.ts'

const WIDGETS = 20
const APPLIED = 10
const VALUES = [2, 3, 4, 5, 6, 7, 8, 9]
const figures: Record<string, unknown> = machine()

if (!fs.existsSync(path.join(ROOT, 'dist', 'manifest.json'))) throw new Error('run `npm run build` first')
const sightline = await startBenchSightline('dashboard-parameters')
const { admin, base } = sightline
const api = admin.api.bind(admin)
try {
  const ds = await api<{ id: number }>('POST', '/api/data_sources', { name: 'Engine', type: 'pg', options: pgSourceOptions(sightline.databaseUrl) })
  const dashboard = await api<{ id: number }>('POST', '/api/dashboards', { name: 'One knob' })
  for (let i = 0; i < WIDGETS; i++) {
    const knob = i < APPLIED ? 'n' : 'm'
    const q = await api<{ id: number; visualizations: { id: number }[] }>('POST', '/api/queries', {
      name: `Times ${i + 1}`, data_source_id: ds.id,
      query: i < APPLIED ? `select {{ n }} * 1000 + ${i + 1} as v` : `select g as day, {{ m }} * g + ${i} as v from generate_series(1, 60) g`,
      options: { parameters: [{ name: knob, title: knob.toUpperCase(), type: 'number', value: 1 }] },
    })
    const viz = await api<{ id: number }>('POST', '/api/visualizations', i < APPLIED
      ? { query_id: q.id, type: 'COUNTER', name: 'Counter', options: { counterColName: 'v' } }
      : { query_id: q.id, type: 'CHART', name: 'Chart', options: { globalSeriesType: i % 2 ? 'line' : 'column', columnMapping: { day: 'x', v: 'y' } } })
    await api('POST', '/api/widgets', {
      dashboard_id: dashboard.id, visualization_id: viz.id,
      options: {
        position: { col: (i % 3) * 2, row: Math.floor(i / 3) * 3, sizeX: 2, sizeY: 3 },
        parameterMappings: { [knob]: { name: knob, type: 'dashboard-level', mapTo: knob, value: null, title: '' } },
      },
    })
  }
  await api('POST', `/api/dashboards/${dashboard.id}`, { is_draft: false })

  const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking'] })
  try {
    // a viewport tall enough for all twenty to hydrate at once, as on a wall screen
    const context = await browser.newContext({ viewport: { width: 1440, height: 2400 } })
    await context.addCookies(admin.cookies.map((c) => ({ ...c, url: base + '/' })))
    const page = await context.newPage()
    const scripts: Promise<[string, number]>[] = []
    page.on('response', (res) => {
      if (res.request().resourceType() === 'script') scripts.push(res.body().then((b) => [path.basename(new URL(res.url()).pathname), gzipSync(b).length]))
    })
    // the ten counters show N * 1000 + their number; the ten charts are drawn
    const allShow = (n: number) => page.waitForFunction((value) => {
      const cards = [...document.querySelectorAll('article[data-widget-id]')]
      return cards.length === 20 && cards.every((card) => {
        const k = Number(card.querySelector('h2')?.textContent?.match(/Times (\d+)/)?.[1])
        if (k > 10) return card.querySelector('[data-widget-drawing] svg') !== null
        return card.querySelector('.sl-counter-value')?.textContent === (value * 1000 + k).toLocaleString('en-US')
      }) ? performance.now() : false
    }, n, { timeout: 30_000, polling: 'raf' })
    const jsGz = async () => {
      const loaded = await Promise.all(scripts)
      return { kb: round(loaded.reduce((n, [, size]) => n + size, 0) / 1024), largest: Object.fromEntries(loaded.sort((a, b) => b[1] - a[1]).slice(0, 6).map(([name, size]) => [name, round(size / 1024)])) }
    }
    await page.goto(`${base}/dashboards/${dashboard.id}`, { waitUntil: 'load' })
    await allShow(1)
    const first = await jsGz()
    figures.jsGzKB = first.kb
    figures.largestScriptsGzKB = first.largest
    const input = page.getByRole('region', { name: 'Dashboard parameters' }).getByLabel('N')
    const times: number[] = []
    for (const n of VALUES) {
      await input.fill(String(n))
      const start = await page.evaluate(() => performance.now())
      await input.press('Control+Enter')
      const end = (await (await allShow(n)).jsonValue()) as number
      times.push(end - start)
    }
    figures.apply_to_all_10_drawn = { p50Ms: round(percentile(times, 0.5)), worstMs: round(Math.max(...times)), runs: times.map(round) }
    figures.jsGzKBAfterApplies = (await jsGz()).kb
    await context.close()
  } finally {
    await browser.close()
  }
  console.log(JSON.stringify(figures, null, 2))
  fs.writeFileSync(path.join(import.meta.dirname, 'dashboard-parameters.json'), JSON.stringify(figures, null, 2) + '\n')
} finally {
  await sightline.stop()
}
