/**
 * Changing one dashboard parameter that ten widgets use (< 1 s to have all ten refreshed), with one real Sightline
 * process (web and worker) on its own embedded PostgreSQL, which is also the engine the trivial queries run on. In
 * headless Chromium: the time from Apply (Ctrl+Enter in the parameters panel) to the last of the ten widgets showing
 * its new number, over several values (each new, so every widget runs its query: no stored result of that text yet);
 * and the JavaScript such a dashboard downloads, gzipped (its router and parameter inputs included; < 150 KB).
 * `npm run build` first. `NODE_ENV=production npx tsx bench/dashboard-parameters.ts`; prints the figures and writes
 * bench/dashboard-parameters.json.
 */
import fs from 'node:fs'
import path from 'node:path'
import { gzipSync } from 'node:zlib'
import { chromium } from 'playwright-core'
import { ROOT } from './server.ts'
import { machine, percentile, pgSourceOptions, round, startBenchSightline } from './sightline.ts'

const WIDGETS = 10
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
    const q = await api<{ id: number; visualizations: { id: number }[] }>('POST', '/api/queries', {
      name: `Times ${i + 1}`, data_source_id: ds.id, query: `select {{ n }} * ${i + 1} as v`,
      options: { parameters: [{ name: 'n', title: 'N', type: 'number', value: 1 }] },
    })
    await api('POST', '/api/widgets', {
      dashboard_id: dashboard.id, visualization_id: q.visualizations[0].id,
      options: {
        position: { col: (i % 3) * 2, row: Math.floor(i / 3) * 3, sizeX: 2, sizeY: 3 },
        parameterMappings: { n: { name: 'n', type: 'dashboard-level', mapTo: 'n', value: null, title: '' } },
      },
    })
  }
  await api('POST', `/api/dashboards/${dashboard.id}`, { is_draft: false })

  const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking'] })
  try {
    // a viewport tall enough for all ten to hydrate at once, as on a wall screen
    const context = await browser.newContext({ viewport: { width: 1440, height: 1400 } })
    await context.addCookies(admin.cookies.map((c) => ({ ...c, url: base + '/' })))
    const page = await context.newPage()
    const scripts: Promise<[string, number]>[] = []
    page.on('response', (res) => {
      if (res.request().resourceType() === 'script') scripts.push(res.body().then((b) => [path.basename(new URL(res.url()).pathname), gzipSync(b).length]))
    })
    const allShow = (n: number) => page.waitForFunction((value) => {
      const cards = [...document.querySelectorAll('article[data-widget-id]')]
      return cards.length === 10 && cards.every((card, i) => {
        const want = String(value * (Number(card.querySelector('h2')?.textContent?.match(/Times (\d+)/)?.[1] ?? i + 1)))
        return [...card.querySelectorAll('td')].some((td) => td.textContent === want)
      }) ? performance.now() : false
    }, n, { timeout: 30_000, polling: 'raf' })
    await page.goto(`${base}/dashboards/${dashboard.id}`, { waitUntil: 'load' })
    await allShow(1)
    const loaded = await Promise.all(scripts)
    figures.jsGzKB = round(loaded.reduce((n, [, size]) => n + size, 0) / 1024)
    figures.largestScriptsGzKB = Object.fromEntries(loaded.sort((a, b) => b[1] - a[1]).slice(0, 6).map(([name, size]) => [name, round(size / 1024)]))
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
    await context.close()
  } finally {
    await browser.close()
  }
  console.log(JSON.stringify(figures, null, 2))
  fs.writeFileSync(path.join(import.meta.dirname, 'dashboard-parameters.json'), JSON.stringify(figures, null, 2) + '\n')
} finally {
  await sightline.stop()
}
