/** The front door of src/assets/: what the rest of Sightline may use of it (the structure test keeps it so). */

export { loadAssets } from './load.ts'
export type { AssetManifest, Assets } from './load.ts'
