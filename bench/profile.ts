/**
 * Summarise a V8 .cpuprofile (from `node --cpu-prof`) over a time window: where the server's CPU time went while
 * the load test ran, by package or file, by function (self time) and by function including callees.
 */
import fs from 'node:fs'

interface CallFrame {
  functionName: string
  url: string
  lineNumber: number
}

interface ProfileNode {
  id: number
  callFrame: CallFrame
  children?: number[]
}

interface CpuProfile {
  nodes: ProfileNode[]
  startTime: number
  endTime: number
  samples: number[]
  timeDeltas: number[]
}

export interface ProfileSummary {
  samples: number
  windowS: number
  /** Share of samples in which the process had nothing to do. */
  idle: number
  byPackage: [string, number][]
  selfByFunction: [string, number][]
  inclusiveByFunction: [string, number][]
}

const short = (url: string) =>
  url.replace(/^file:\/\//, '').replace(/^.*\/node_modules\//, '').replace(/^.*?\/(src|routes|islands|worker)\//, '$1/')

const pkg = (frame: CallFrame) => {
  const nm = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(frame.url)
  if (nm) return nm[1]
  if (!frame.url) return `(${frame.functionName || 'native'})`
  if (frame.url.startsWith('node:')) return frame.url
  return short(frame.url)
}

/**
 * Summarise the samples taken between `fromEndS` and `toEndS` seconds before the profile ended (the process
 * exits shortly after the load test, so this picks out the load).
 */
export function summariseProfile(file: string, fromEndS: number, toEndS: number, top = 25): ProfileSummary {
  const p = JSON.parse(fs.readFileSync(file, 'utf8')) as CpuProfile
  const byId = new Map(p.nodes.map((n) => [n.id, n]))
  const parent = new Map<number, number>()
  for (const n of p.nodes) for (const c of n.children ?? []) parent.set(c, n.id)
  const from = p.endTime - fromEndS * 1e6
  const to = p.endTime - toEndS * 1e6
  const counts = new Map<number, number>()
  let t = p.startTime
  let total = 0
  p.samples.forEach((id, i) => {
    t += p.timeDeltas[i] ?? 0
    if (t < from || t > to) return
    counts.set(id, (counts.get(id) ?? 0) + 1)
    total++
  })
  const name = (n: ProfileNode) => `${n.callFrame.functionName || '(anonymous)'} ${short(n.callFrame.url)}:${n.callFrame.lineNumber + 1}`
  const self = new Map<string, number>()
  const inclusive = new Map<string, number>()
  const packages = new Map<string, number>()
  let idle = 0
  const add = (m: Map<string, number>, k: string, v: number) => m.set(k, (m.get(k) ?? 0) + v)
  for (const [id, c] of counts) {
    const n = byId.get(id)!
    if (n.callFrame.functionName === '(idle)') idle += c
    add(self, name(n), c)
    add(packages, pkg(n.callFrame), c)
    const seen = new Set<string>()
    for (let x: number | undefined = id; x !== undefined; x = parent.get(x)) {
      const k = name(byId.get(x)!)
      if (!seen.has(k)) add(inclusive, k, c)
      seen.add(k)
    }
  }
  const rank = (m: Map<string, number>, skip = (_k: string) => false): [string, number][] =>
    [...m].filter(([k]) => !skip(k)).sort((a, b) => b[1] - a[1]).slice(0, top).map(([k, v]) => [k, total ? v / total : 0])
  // Frames every request passes through (the event loop, the microtask queue) say nothing; leave them out.
  const plumbing = (k: string) => /^\((root|program)\)|^processTicksAndRejections |^runMicrotasks /.test(k)
  return {
    samples: total, windowS: fromEndS - toEndS, idle: total ? idle / total : 0,
    byPackage: rank(packages), selfByFunction: rank(self), inclusiveByFunction: rank(inclusive, plumbing),
  }
}

export function formatProfile(s: ProfileSummary): string {
  const list = (rows: [string, number][]) => rows.map(([k, v]) => `  ${(v * 100).toFixed(1).padStart(5)}%  ${k}`).join('\n')
  return [
    `${s.samples} samples over ${s.windowS.toFixed(1)} s; idle ${(s.idle * 100).toFixed(1)}%`,
    'Self time by package or file:', list(s.byPackage),
    'Self time by function:', list(s.selfByFunction),
    'Time including callees:', list(s.inclusiveByFunction),
  ].join('\n')
}
