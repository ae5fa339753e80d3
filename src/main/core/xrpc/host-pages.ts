/**
 * A host that keeps handing out cursors is stopped here (5,000 pages of 100: half a
 * million items, far past any group we target), so a broken peer cannot loop a sync
 * forever; one that hands back the same cursor twice is stopped at once.
 */
const MAX_PAGES = 5_000

/** Reads every page of a cursor-paged list, telling `onPage` how many items each page brought. */
export async function allPages<T>(
  fetchPage: (cursor: string | undefined) => Promise<{ items: T[]; cursor?: string }>,
  onPage?: (items: number) => void,
): Promise<T[]> {
  const out: T[] = []
  const seen = new Set<string>()
  let cursor: string | undefined
  for (let i = 0; i < MAX_PAGES; i++) {
    const page = await fetchPage(cursor)
    for (const item of page.items) out.push(item)
    onPage?.(page.items.length)
    // An empty page with a cursor is not the end: a host may filter a page after cutting
    // it (taken-down records are), and what follows it is still there.
    if (!page.cursor || seen.has(page.cursor)) break
    seen.add(page.cursor)
    cursor = page.cursor
  }
  return out
}
