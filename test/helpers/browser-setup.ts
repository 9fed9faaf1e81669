import { chromium, type LaunchOptions } from 'playwright-core'
import type { TestProject } from 'vitest/node'

/** Headless Chromium from the system (never a downloaded one), quiet: no network calls of its own. */
export const CHROMIUM: LaunchOptions = {
  executablePath: '/usr/bin/chromium',
  args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking',
    '--disable-component-update', '--disable-sync'],
}

/** One Chromium for the browser layer's run, which each of its files connects to (see test/helpers/chromium.ts). */
export default async function setup(project: TestProject) {
  const server = await chromium.launchServer(CHROMIUM)
  project.provide('browserEndpoint', server.wsEndpoint())
  return () => server.close()
}
