// Queuing a job is a statement on our database, so it lives in the jobs store; this module keeps the name callers know.
export { enqueue } from './store.ts'
