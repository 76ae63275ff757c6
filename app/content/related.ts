/** Articles to read next: the same category first, then the rest; each group keeps the list's (newest-first) order. */
export function pickRelated<T extends { slug: string; category: string }>(articles: readonly T[], current: T, count = 3) {
  const others = articles.filter((other) => other.slug !== current.slug);
  const sameCategory = others.filter((other) => other.category === current.category);
  const rest = others.filter((other) => other.category !== current.category);
  return [...sameCategory, ...rest].slice(0, count);
}
