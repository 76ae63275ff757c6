/** Blog categories in the order the blog page shows them (spec section 3). */
export const ARTICLE_CATEGORIES = [
  { slug: "market-analysis", name: "Market Analysis" },
  { slug: "precious-metals", name: "Precious Metals" },
  { slug: "bonds-fixed-income", name: "Bonds & Fixed Income" },
  { slug: "investment-strategy", name: "Investment Strategy" },
  { slug: "retirement-planning", name: "Retirement Planning" },
  { slug: "wealth-building", name: "Wealth Building" },
] as const;

export const ALL_POSTS_LABEL = "All Posts";

export type ArticleCategoryName = (typeof ARTICLE_CATEGORIES)[number]["name"];
export type ArticleCategorySlug = (typeof ARTICLE_CATEGORIES)[number]["slug"];

const CATEGORY_NAMES = ARTICLE_CATEGORIES.map((category) => category.name) as [
  ArticleCategoryName,
  ...ArticleCategoryName[],
];
export { CATEGORY_NAMES };

export function categoryBySlug(slug: string | null | undefined) {
  return ARTICLE_CATEGORIES.find((category) => category.slug === slug);
}

export function categorySlugOf(name: ArticleCategoryName): ArticleCategorySlug {
  const found = ARTICLE_CATEGORIES.find((category) => category.name === name);
  if (!found) throw new Error(`Unknown category ${name}`);
  return found.slug;
}
