/** Up to this many items per list (100 pages of 100): enough for the largest groups we target. */
const MAX_PAGES = 100

/** Reads every page of a cursor-paged list. */
export async function allPages<T>(fetchPage: (cursor: string | undefined) => Promise<{ items: T[]; cursor?: string }>): Promise<T[]> {
  const out: T[] = []
  let cursor: string | undefined
  for (let i = 0; i < MAX_PAGES; i++) {
    const page = await fetchPage(cursor)
    out.push(...page.items)
    if (!page.cursor || page.items.length === 0) break
    cursor = page.cursor
  }
  return out
}
