/**
 * The texts of dashboard sharing: the Share Dashboard dialog, the share API's refusals and the public page. Strings
 * the specification quotes (spec 2 §4, §5) are kept character for character.
 */
export const shareTexts = {
  // spec 2 §5
  unsafe: 'For your security, sharing is currently not supported for dashboards containing queries with text parameters. Consider changing the text parameters in your query to a different type.',
  // reference §7.1
  disabled: 'Public URLs are disabled.',
  // spec 2 §4 "Copy button"
  copied: 'Copied!',
  copyFailed: 'Copy failed',
  copy: 'Copy',
  share: 'Share',
  title: 'Share Dashboard',
  allowPublic: 'Allow public access',
  secretAddress: 'Secret address',
  publicHint: 'Anyone with this address sees the dashboard, its parameters and filters, read-only, without signing in.',
  turnedOff: 'Public access is off: the address no longer works.',
  off: 'Public access is off: only people signed in to Sightline with access see this dashboard.',
  saving: 'Saving…',
  saveFailed: 'Could not change public access.',
  close: 'Close',
  publicGrid: 'Widgets',
}
