/** What a command needs of the world: its output, the environment, HTTP and a clock (tests give their own). */
export interface CliIo {
  out(text: string): void
  err(text: string): void
  env: Record<string, string | undefined>
  fetch: typeof fetch
  /** Wait between two polls of a run. */
  pause(ms: number): Promise<void>
  /** Whether the output is a terminal (progress bars are redrawn in place) or a file (one line per change). */
  tty: boolean
}

export function nodeIo(): CliIo {
  return {
    out: (text) => void process.stdout.write(text),
    err: (text) => void process.stderr.write(text),
    env: process.env,
    fetch: globalThis.fetch,
    pause: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
    tty: !!process.stdout.isTTY,
  }
}

/** Text from another system, safe to print: no terminal control sequences, one line. */
export const printable = (value: unknown) => String(value ?? '').replace(/[\u0000-\u001f\u007f-\u009f]/g, ' ')

/** `--name value`, `--name=value` and `--flag` options; anything else is an error naming it. */
export function parseOptions(args: string[], known: { values: string[]; flags: string[] }): { values: Record<string, string>; flags: Set<string> } | string {
  const values: Record<string, string> = {}
  const flags = new Set<string>()
  for (let i = 0; i < args.length; i++) {
    const [name, inline] = args[i].startsWith('--') ? args[i].slice(2).split(/=(.*)/s, 2) : [null, undefined]
    if (name === null) return `Unexpected argument: ${args[i]}`
    if (known.flags.includes(name)) flags.add(name)
    else if (known.values.includes(name)) {
      const value = inline ?? args[++i]
      if (value === undefined || value === '') return `--${name} needs a value.`
      values[name] = value
    } else return `Unknown option: --${name}`
  }
  return { values, flags }
}
