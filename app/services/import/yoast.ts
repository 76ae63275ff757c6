/**
 * Yoast SEO's `%%…%%` variables, as a post's SEO title or description templates hold them
 * (`_yoast_wpseo_title`, `_yoast_wpseo_metadesc`), expanded the way Yoast's WPSEO_Replace_Vars
 * does for a single post (issue 35), so an imported article keeps the title it had in search
 * results.
 */

export type YoastContext = {
  title: string;
  siteName: string;
  siteDescription: string;
  /** The post's own excerpt, plain text ("" when it has none). */
  excerpt: string;
  /** The body as plain text: `%%excerpt%%` falls back to its first 155 characters, as Yoast's does. */
  content?: string;
  categories: string[];
  /** Yoast's primary category's name (`_yoast_wpseo_primary_category` is a term id: the caller names it). */
  primaryCategory?: string;
  tags: string[];
  /** Other taxonomies' term names by taxonomy, for `%%ct_<taxonomy>%%`. */
  taxonomies?: Record<string, string[]>;
  authorName: string;
  date: Date | null;
  modified: Date | null;
  now: Date;
  /** Yoast's title separator (Settings → Search appearance; not in a WXR): "-" when not given, Yoast's default. */
  separator?: string;
  focusKeyword?: string;
  /** The post's meta, for `%%cf_<field>%%` (and the focus keyword when not given). */
  meta: Record<string, string>;
  /** An IANA time zone (the old site's), for the dates; UTC when not given or not one. */
  timeZone?: string;
  /** The term's name when the template is a category's or tag's own; empty for a post. */
  termTitle?: string;
};

export type YoastExpansion = { text: string; unknown: string[] };

/** WordPress's default `date_format`, `F j, Y` ("March 5, 2024"), in the given zone. */
function formatter(timeZone: string | undefined, options: Intl.DateTimeFormatOptions) {
  try {
    return new Intl.DateTimeFormat("en-US", { ...options, timeZone: timeZone || "UTC" });
  } catch {
    // An unknown zone name: UTC rather than no date at all.
    return new Intl.DateTimeFormat("en-US", { ...options, timeZone: "UTC" });
  }
}

/** Yoast's excerpt when a post has none: the content cut at 155 characters, as wp_html_excerpt cuts it. */
const EXCERPT_LENGTH = 155;

/** Variables Yoast knows that name nothing on a single post (archives', searches', 404s'): empty. */
const EMPTY_ON_A_POST = new Set(["page", "pagenumber", "pagetotal", "searchphrase", "term404", "category_description", "tag_description", "term_description", "parent_title", "caption"]);

/** Yoast reads a variable as `%%name%%`; the name has no `%` and no spaces. */
const VARIABLE = /%%([^%\s]+)%%/g;

const escapeForPattern = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/**
 * Expands the template for one post. Like Yoast: tags are stripped first, known variables are
 * replaced (an empty value is an empty string), unknown ones removed; separators with nothing but
 * spaces between them become one; whitespace is collapsed and trimmed. Beyond Yoast, a separator
 * left at either end is dropped too ("Title -" when the site name is empty reads as broken).
 * `unknown` lists the removed variables as written, once each, for the import's report.
 */
export function expandYoast(template: string, context: YoastContext): YoastExpansion {
  const separator = context.separator ?? "-";
  const day = formatter(context.timeZone, { month: "long", day: "numeric", year: "numeric" });
  const part = (date: Date, options: Intl.DateTimeFormatOptions) => formatter(context.timeZone, options).format(date);
  const dated = (date: Date | null) => (date && !Number.isNaN(date.getTime()) ? day.format(date) : "");
  const list = (names: string[]) => names.filter((name) => name.trim() !== "").join(", ");
  const excerpt = () => {
    if (context.excerpt.trim()) return context.excerpt;
    return (context.content ?? "").replace(/\s+/g, " ").trim().slice(0, EXCERPT_LENGTH);
  };
  const validPostDate = context.date && !Number.isNaN(context.date.getTime()) ? context.date : null;

  const known = (name: string): string | null => {
    switch (name) {
      case "title":
        return context.title;
      case "sitename":
        return context.siteName;
      case "sitedesc":
        return context.siteDescription;
      case "excerpt":
        return excerpt();
      case "excerpt_only":
        return context.excerpt;
      case "category":
        return list(context.categories);
      case "primary_category":
        // Yoast takes the first category when no primary one is set.
        return context.primaryCategory || context.categories[0] || "";
      case "tag":
        return list(context.tags);
      case "name":
        return context.authorName;
      case "date":
        return dated(context.date);
      case "modified":
        return dated(context.modified);
      case "post_year":
        return validPostDate ? part(validPostDate, { year: "numeric" }) : "";
      case "post_month":
        return validPostDate ? part(validPostDate, { month: "long" }) : "";
      case "post_day":
        return validPostDate ? part(validPostDate, { day: "numeric" }) : "";
      case "currentyear":
        return part(context.now, { year: "numeric" });
      case "currentmonth":
        return part(context.now, { month: "long" });
      case "currentday":
        return part(context.now, { day: "numeric" });
      case "currentdate":
        return dated(context.now);
      case "sep":
        return separator;
      case "focuskw":
        return context.focusKeyword ?? context.meta._yoast_wpseo_focuskw ?? "";
      case "term_title":
        return context.termTitle ?? "";
      case "pt_single":
        return "Post";
      case "pt_plural":
        return "Posts";
      default:
        break;
    }
    if (EMPTY_ON_A_POST.has(name)) return "";
    if (name.startsWith("cf_") && name.length > 3) return context.meta[name.slice(3)] ?? "";
    if (name.startsWith("ct_") && !name.startsWith("ct_desc_") && name.length > 3) {
      const taxonomy = name.slice(3);
      if (taxonomy === "category") return list(context.categories);
      if (taxonomy === "post_tag") return list(context.tags);
      return list(context.taxonomies?.[taxonomy] ?? []);
    }
    return null;
  };

  const unknown: string[] = [];
  // Yoast strips tags before anything else; a `<` followed by a space is not a tag.
  const stripped = template.replace(/<\/?[A-Za-z!][^>]*>/g, "");
  let text = stripped.replace(VARIABLE, (whole, name: string) => {
    const value = known(name);
    if (value !== null) return value;
    if (!unknown.includes(whole)) unknown.push(whole);
    return "";
  });
  text = text.replace(/\s+/g, " ").trim();
  if (separator.trim() !== "") {
    const sep = escapeForPattern(separator.trim());
    text = text
      .replace(new RegExp(`${sep}(?:\\s*${sep})+`, "gu"), separator.trim())
      // Only a separator standing alone: the hyphen of "Top-" stays.
      .replace(new RegExp(`^(?:${sep}(?:\\s+|$))+|(?:(?:^|\\s+)${sep})+$`, "gu"), "")
      .trim();
  }
  return { text, unknown };
}
