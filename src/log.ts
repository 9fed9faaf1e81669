import type { LogLevel } from './config.ts'

const order: Record<LogLevel, number> = { debug: 10, info: 20, warn: 30, error: 40 }
let threshold = order.info

export function setLogLevel(level: LogLevel) {
  threshold = order[level]
}

function write(level: LogLevel, message: string, fields?: Record<string, unknown>) {
  if (order[level] < threshold) return
  const line = JSON.stringify({ time: new Date().toISOString(), level, message, ...fields })
  if (order[level] >= order.warn) process.stderr.write(line + '\n')
  else process.stdout.write(line + '\n')
}

/** Structured one-line JSON logs, so operators can ship them anywhere. */
export const log = {
  debug: (m: string, f?: Record<string, unknown>) => write('debug', m, f),
  info: (m: string, f?: Record<string, unknown>) => write('info', m, f),
  warn: (m: string, f?: Record<string, unknown>) => write('warn', m, f),
  error: (m: string, f?: Record<string, unknown>) => write('error', m, f),
}
