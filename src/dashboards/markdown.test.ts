import { describe, expect, it } from 'vitest'
import { renderMarkdown } from './markdown.ts'

describe('text box markdown', () => {
  it('renders headings, emphasis, lists, links and images', () => {
    const html = renderMarkdown('## Notes\n\n*Revenue* is up.\n\n- one\n- two\n\n[docs](https://example.com/docs) ![logo](https://example.com/logo.png)')
    expect(html).toContain('<h2>Notes</h2>')
    expect(html).toContain('<em>Revenue</em>')
    expect(html).toContain('<li>one</li>')
    expect(html).toContain('<a href="https://example.com/docs" target="_blank" rel="noopener noreferrer nofollow">docs</a>')
    expect(html).toContain('<img src="https://example.com/logo.png" alt="logo" loading="lazy" referrerpolicy="no-referrer">')
  })

  it('shows HTML as text: no script, no event handler, no iframe', () => {
    const html = renderMarkdown('<script>alert(1)</script><img src=x onerror=alert(2)><iframe src="https://evil.example"></iframe>')
    expect(html).not.toMatch(/<script|<img|<iframe/)
    expect(html).toContain('&lt;script&gt;')
  })

  it('refuses javascript:, data:, file: and relative addresses in links and images', () => {
    for (const url of ['javascript:alert(1)', 'JaVaScRiPt:alert(1)', 'data:text/html,<b>x</b>', 'file:///etc/passwd', '/api/users', '//evil.example/x']) {
      expect(renderMarkdown(`[x](${url}) ![y](${url})`), url).not.toMatch(/<a |<img /)
    }
  })
})
