/**
 * CPU accounting from /proc (Linux), so a run on a busy machine can be told apart from a slow server: how much CPU
 * the server's processes used, how much this process (the load generator) used, and how much everything else took.
 */
import fs from 'node:fs'
import os from 'node:os'

const TICK_S = 0.01 // USER_HZ is 100 on every Linux architecture Node supports

/** Seconds of CPU (user + system) used so far by every process in process group `pgid`. */
export function groupCpuSeconds(pgid: number): number {
  let ticks = 0
  let dirs: string[] = []
  try {
    dirs = fs.readdirSync('/proc').filter((d) => /^\d+$/.test(d))
  } catch {
    return NaN
  }
  for (const d of dirs) {
    let stat: string
    try {
      stat = fs.readFileSync(`/proc/${d}/stat`, 'utf8')
    } catch {
      continue // exited meanwhile
    }
    // fields after "pid (comm) ": state ppid pgrp session tty tpgid flags minflt cminflt majflt cmajflt utime stime
    const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
    if (Number(f[2]) === pgid) ticks += Number(f[11]) + Number(f[12])
  }
  return ticks * TICK_S
}

/** CPU seconds (user + system, every thread) process `pid` has used so far. */
export function processCpuSeconds(pid: number): number {
  const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8')
  const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
  return (Number(f[11]) + Number(f[12])) * TICK_S
}

/** Busy and total CPU seconds of the whole machine, summed over its CPUs. */
function machineCpu(): { busy: number; total: number } {
  try {
    const line = fs.readFileSync('/proc/stat', 'utf8').split('\n')[0]
    const [user, nice, system, idle, iowait, irq, softirq, steal] = line.trim().split(/\s+/).slice(1).map(Number)
    const busy = user + nice + system + irq + softirq + steal
    return { busy: busy * TICK_S, total: (busy + idle + iowait) * TICK_S }
  } catch {
    return { busy: NaN, total: NaN }
  }
}

export interface CpuUse {
  wallS: number
  /** CPU seconds of the server's process group (tsx and the Sightline node process). */
  serverS: number
  /** CPU seconds of this process, i.e. autocannon generating the load. */
  benchS: number
  /** CPU seconds of everything else on the machine (other programs, the embedded PostgreSQL). */
  otherS: number
  cpus: number
}

/** Start measuring; call the result to get the CPU used since. */
export function cpuMeter(serverPgid: number): () => CpuUse {
  const t0 = process.hrtime.bigint()
  const server0 = groupCpuSeconds(serverPgid)
  const bench0 = process.cpuUsage()
  const machine0 = machineCpu()
  return () => {
    const wallS = Number(process.hrtime.bigint() - t0) / 1e9
    const serverS = groupCpuSeconds(serverPgid) - server0
    const b = process.cpuUsage(bench0)
    const benchS = (b.user + b.system) / 1e6
    const machine = machineCpu()
    const otherS = Math.max(0, machine.busy - machine0.busy - serverS - benchS)
    return { wallS, serverS, benchS, otherS, cpus: os.cpus().length }
  }
}
