// Checking a list's query string is not an HTTP concern: services use it from src/validation/; handed on here for
// the routes that import it from this module.
export { apiListQuery } from '../validation/index.ts'
