/** Trending topics on the blog; each leads to the articles about it. */
export const TRENDING_TOPICS = [
  { label: "Gold as an inflation hedge", href: "/articles/precious-metals-guide" },
  { label: "What the Fed’s next move means", href: "/articles/fed-policy-guide" },
  { label: "Treasuries vs. corporate bonds", href: "/articles/bonds-guide" },
  { label: "Protecting your 401(k)", href: "/articles/retirement-protection" },
  { label: "The hidden cost of ESG funds", href: "/articles/esg-investing" },
  { label: "Building generational wealth", href: "/articles/generational-wealth" },
] as const;
