import { spawn, type ChildProcess } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { freePort } from '../../src/db/index.ts'
import { sleep } from './support.ts'

/**
 * A real ClickHouse for a test file: the one answering on 127.0.0.1:8123 if any, else a server started from the
 * `clickhouse-server` binary (.ci/run installs Debian's) with its own config, data dir and free ports, user
 * `default` without a password.
 */
export interface ClickHouseServer {
  url: string
  /** Whether this test file started the server (and so has the extra users it asked for). */
  own: boolean
  /** Runs one statement as `default`; the answer's text. */
  admin(text: string): Promise<string>
  stop(): Promise<void>
}

async function answers(u: string) {
  try {
    return (await fetch(`${u}/ping`, { signal: AbortSignal.timeout(500) })).ok
  } catch {
    return false
  }
}

/** `users`: extra users with passwords, made only on a server this file starts. */
export async function clickhouseServer(o: { users?: { user: string; password: string }[] } = {}): Promise<ClickHouseServer> {
  let own: { child: ChildProcess; dir: string; url: string } | undefined
  let url = 'http://127.0.0.1:8123'
  if (!(await answers(url))) {
    own = await start(o.users ?? [])
    url = own.url
  }
  return {
    url,
    own: own !== undefined,
    admin: async (text) => {
      const res = await fetch(url, { method: 'POST', body: text })
      const body = await res.text()
      if (!res.ok) throw new Error(body)
      return body
    },
    stop: async () => {
      if (!own) return
      own.child.kill('SIGTERM')
      await new Promise((r) => (own!.child.exitCode !== null ? r(null) : own!.child.once('exit', r)))
      fs.rmSync(own.dir, { recursive: true, force: true })
    },
  }
}

const userXml = (name: string, password: string) =>
  `<${name}><password>${password}</password><networks><ip>::/0</ip></networks><profile>default</profile><quota>default</quota></${name}>`

async function start(users: { user: string; password: string }[]): Promise<{ child: ChildProcess; dir: string; url: string }> {
  const bin = ['/usr/bin/clickhouse-server', '/usr/sbin/clickhouse-server'].find((p) => fs.existsSync(p))
  if (!bin) throw new Error('no ClickHouse on 127.0.0.1:8123 and no clickhouse-server binary: .ci/run installs it')
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sightline-clickhouse-'))
  const [http, tcp] = [await freePort(), await freePort()]
  fs.writeFileSync(path.join(dir, 'config.xml'), `<?xml version="1.0"?>
<yandex>
  <logger><level>warning</level><console>1</console></logger>
  <http_port>${http}</http_port>
  <tcp_port>${tcp}</tcp_port>
  <listen_host>127.0.0.1</listen_host>
  <path>${dir}/data/</path>
  <tmp_path>${dir}/data/tmp/</tmp_path>
  <user_files_path>${dir}/data/user_files/</user_files_path>
  <format_schema_path>${dir}/data/format_schemas/</format_schema_path>
  <mark_cache_size>268435456</mark_cache_size>
  <users_config>users.xml</users_config>
  <default_profile>default</default_profile>
  <default_database>default</default_database>
  <timezone>UTC</timezone>
</yandex>`)
  fs.writeFileSync(path.join(dir, 'users.xml'), `<?xml version="1.0"?>
<yandex>
  <profiles><default><max_memory_usage>2000000000</max_memory_usage></default></profiles>
  <users>${[{ user: 'default', password: '' }, ...users].map((u) => userXml(u.user, u.password)).join('')}</users>
  <quotas><default><interval><duration>3600</duration><queries>0</queries><errors>0</errors><result_rows>0</result_rows><read_rows>0</read_rows><execution_time>0</execution_time></interval></default></quotas>
</yandex>`)
  const child = spawn(bin, [`--config-file=${path.join(dir, 'config.xml')}`], { cwd: dir, stdio: ['ignore', 'pipe', 'pipe'] })
  let output = ''
  child.stdout!.on('data', (d) => (output += d))
  child.stderr!.on('data', (d) => (output += d))
  const url = `http://127.0.0.1:${http}`
  const started = Date.now()
  while (!(await answers(url))) {
    if (child.exitCode !== null || Date.now() - started > 60_000) throw new Error(`clickhouse-server did not start:\n${output}`)
    await sleep(100)
  }
  return { child, dir, url }
}
