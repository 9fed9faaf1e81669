/**
 * Data source type logos for server-rendered pages. The drawing lives in islands/lib/DataSourceLogo.tsx, because the
 * create dialog (an island, which may import only islands/ and src/shared/) draws the same marks in the browser.
 */
export { DataSourceLogo, logoKey } from '../../islands/lib/DataSourceLogo.tsx'
