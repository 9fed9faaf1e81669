// The login popup of the session-expired modal ends here: tell the page that opened it, then close.
if (window.opener) {
  window.opener.postMessage({ type: 'session-restored' }, location.origin)
  window.close()
}
