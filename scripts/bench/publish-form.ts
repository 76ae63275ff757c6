/** The admin's "new article" form as the benchmarks post it to publish at once (bench:publish, bench:archive). */
export function publishForm(slug: string, run: number, authorId: string) {
  return new URLSearchParams({
    intent: "publish",
    title: `Benchmark article number ${run + 1}`,
    slug,
    excerpt: "An article published by the benchmark to time how fast every process serves it.",
    body: "First paragraph.\n\nSecond paragraph with a [link](https://example.com/).",
    category: "Market Analysis",
    image: "/images/articles/bonds-guide.svg",
    imageAlt: "A chart of Treasury yields over ten years",
    authorId,
  });
}
