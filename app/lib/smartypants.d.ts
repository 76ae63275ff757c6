// The smartypants package ships no types; we use its Unicode variant on plain text.
declare module "smartypants" {
  /** Typographic quotes, dashes and ellipses as Unicode characters; `attr` as in SmartyPants ("1": "--" is an em dash). */
  export function smartypantsu(text: string, attr?: string | number): string;
}
