import fs from 'node:fs'
import https from 'node:https'
import path from 'node:path'
import { freePort } from '../../src/db/index.ts'
import { makeCertificates, type Certificates } from './certificates.ts'
import { binary, startEngine, tempDir, waitReady, type EngineProcess } from './engine-process.ts'

/**
 * A real Prometheus for a test file: Debian's binary on a free port, with a temporary storage directory and a
 * configuration that scrapes the server itself every second, so `up` and Prometheus's own metrics have samples.
 * With `tls`, it answers https only, to clients with a certificate of its own test CA.
 */
export interface PrometheusServer extends EngineProcess {
  url: string
  certificates?: Certificates
  /** Answers an API call (path and query string) as JSON. */
  api(pathAndQuery: string): Promise<{ status: string; data: unknown }>
}

export async function prometheusServer(o: { tls?: boolean } = {}): Promise<PrometheusServer> {
  const bin = binary(['/usr/bin/prometheus'], 'prometheus')
  const dir = tempDir('prometheus')
  const port = await freePort()
  const address = `127.0.0.1:${port}`
  const certificates = o.tls ? makeCertificates(dir) : undefined
  const clientTls = (c: Certificates) => [`      ca_file: ${c.ca}`, `      cert_file: ${c.clientCert}`, `      key_file: ${c.clientKey}`]
  fs.writeFileSync(path.join(dir, 'prometheus.yml'), [
    'global:',
    '  scrape_interval: 1s',
    '  evaluation_interval: 1s',
    'scrape_configs:',
    '  - job_name: prometheus',
    ...(certificates ? ['    scheme: https', '    tls_config:', ...clientTls(certificates)] : []),
    '    static_configs:',
    `      - targets: ['${address}']`,
    '',
  ].join('\n'))
  if (certificates) {
    fs.writeFileSync(path.join(dir, 'web.yml'), [
      'tls_server_config:',
      `  cert_file: ${certificates.serverCert}`,
      `  key_file: ${certificates.serverKey}`,
      '  client_auth_type: RequireAndVerifyClientCert',
      `  client_ca_file: ${certificates.ca}`,
      '',
    ].join('\n'))
  }
  const engine = startEngine(bin, [
    `--config.file=${path.join(dir, 'prometheus.yml')}`,
    `--storage.tsdb.path=${path.join(dir, 'data')}`,
    `--web.listen-address=${address}`,
    ...(certificates ? [`--web.config.file=${path.join(dir, 'web.yml')}`] : []),
    '--log.level=warn',
  ], dir)
  const url = `${certificates ? 'https' : 'http'}://${address}`
  const get = (pathAndQuery: string) => certificates ? httpsGet(`${url}${pathAndQuery}`, certificates)
    : fetch(`${url}${pathAndQuery}`, { signal: AbortSignal.timeout(5_000) }).then(async (r) => ({ ok: r.ok, body: await r.text() }))
  const api = async (pathAndQuery: string) => JSON.parse((await get(pathAndQuery)).body) as { status: string; data: unknown }
  try {
    await waitReady(engine, 'prometheus', async () => (await get('/-/ready')).ok)
    // the first scrape of itself: from here on `up` has a sample
    await waitReady(engine, 'prometheus (first scrape)', async () => {
      const answer = await api('/api/v1/query?query=up')
      return ((answer.data as { result: unknown[] }).result ?? []).length > 0
    })
  } catch (e) {
    await engine.stop()
    throw e
  }
  return { ...engine, url, api, certificates }
}

/** A GET with the test CA's client certificate (fetch cannot present one). */
function httpsGet(url: string, c: Certificates): Promise<{ ok: boolean; body: string }> {
  return new Promise((resolve, reject) => {
    https.get(url, { ca: fs.readFileSync(c.ca), cert: fs.readFileSync(c.clientCert), key: fs.readFileSync(c.clientKey), timeout: 5_000 }, (res) => {
      let body = ''
      res.on('data', (d) => (body += d))
      res.on('end', () => resolve({ ok: res.statusCode === 200, body }))
    }).on('error', reject).on('timeout', function (this: import('node:http').ClientRequest) { this.destroy(new Error('timeout')) })
  })
}
