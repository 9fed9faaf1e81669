/** The front door of src/demo/: what the rest of Sightline may use of it (the structure test keeps it so). */

export { DEMO_DBPATH, ensureDemoDatabase, provideDemoDatabase } from './dataset.ts'
export { addDemoSource } from './service.ts'
