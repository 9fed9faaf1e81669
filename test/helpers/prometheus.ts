import fs from 'node:fs'
import path from 'node:path'
import { freePort } from '../../src/db/embedded.ts'
import { binary, startEngine, tempDir, waitReady, type EngineProcess } from './engine-process.ts'

/**
 * A real Prometheus for a test file: Debian's binary on a free port, with a temporary storage directory and a
 * configuration that scrapes the server itself every second, so `up` and Prometheus's own metrics have samples.
 */
export interface PrometheusServer extends EngineProcess {
  url: string
  /** Answers an API call (path and query string) as JSON. */
  api(pathAndQuery: string): Promise<{ status: string; data: unknown }>
}

export async function prometheusServer(): Promise<PrometheusServer> {
  const bin = binary(['/usr/bin/prometheus'], 'prometheus')
  const dir = tempDir('prometheus')
  const port = await freePort()
  const address = `127.0.0.1:${port}`
  fs.writeFileSync(path.join(dir, 'prometheus.yml'), [
    'global:',
    '  scrape_interval: 1s',
    '  evaluation_interval: 1s',
    'scrape_configs:',
    '  - job_name: prometheus',
    '    static_configs:',
    `      - targets: ['${address}']`,
    '',
  ].join('\n'))
  const engine = startEngine(bin, [
    `--config.file=${path.join(dir, 'prometheus.yml')}`,
    `--storage.tsdb.path=${path.join(dir, 'data')}`,
    `--web.listen-address=${address}`,
    '--log.level=warn',
  ], dir)
  const url = `http://${address}`
  const api = async (pathAndQuery: string) => (await fetch(`${url}${pathAndQuery}`, { signal: AbortSignal.timeout(5_000) })).json() as Promise<{ status: string; data: unknown }>
  try {
    await waitReady(engine, 'prometheus', async () => (await fetch(`${url}/-/ready`, { signal: AbortSignal.timeout(1_000) })).ok)
    // the first scrape of itself: from here on `up` has a sample
    await waitReady(engine, 'prometheus (first scrape)', async () => {
      const answer = await api('/api/v1/query?query=up')
      return ((answer.data as { result: unknown[] }).result ?? []).length > 0
    })
  } catch (e) {
    await engine.stop()
    throw e
  }
  return { ...engine, url, api }
}
