/**
 * Orders ASCII strings (ISO 8601 UTC timestamps, DIDs) as localeCompare would for them,
 * at a fraction of the cost: lists of 10,000 are sorted with it.
 */
export const ascii = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0)
