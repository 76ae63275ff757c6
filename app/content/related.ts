type Indexed<T> = { item: T; index: number };

/** Up to `count` entries closest to position `at` (entries sorted by position); a tie goes to the newer (lower position). */
function nearest<T>(entries: readonly Indexed<T>[], at: number, count: number): T[] {
  let right = entries.findIndex((entry) => entry.index > at);
  if (right === -1) right = entries.length;
  let left = right - 1;
  const picked: T[] = [];
  while (picked.length < count && (left >= 0 || right < entries.length)) {
    const takeLeft = right >= entries.length || (left >= 0 && at - entries[left]!.index <= entries[right]!.index - at);
    picked.push(takeLeft ? entries[left--]!.item : entries[right++]!.item);
  }
  return picked;
}

/**
 * Articles to read next, from a newest-first list: those published closest to this one, the same
 * category first, then the others. Closeness keeps the choice stable (decision 057): a new article
 * enters the box of only the few articles published just before it in its category, so publishing
 * re-renders a handful of article pages, not the whole category (server/live-pages.ts), and an old
 * article keeps linking to its neighbours. An article not in the list gets the newest.
 */
export function pickRelated<T extends { slug: string; category: string }>(articles: readonly T[], current: T, count = 3) {
  const at = articles.findIndex((article) => article.slug === current.slug);
  const others = articles.map((item, index) => ({ item, index })).filter((entry) => entry.item.slug !== current.slug);
  const sameCategory = nearest(others.filter((entry) => entry.item.category === current.category), at, count);
  const rest = nearest(others.filter((entry) => entry.item.category !== current.category), at, count - sameCategory.length);
  return [...sameCategory, ...rest];
}
