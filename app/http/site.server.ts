import type { PublicSiteConfig } from "~/config/site";
import { getEnv } from "./env.server";

export function getPublicSiteConfig(now = new Date()): PublicSiteConfig {
  const env = getEnv();
  return {
    name: env.SITE_NAME,
    url: env.SITE_URL,
    email: env.SITE_EMAIL,
    phone: env.SITE_PHONE,
    offerUrl: env.OFFER_URL,
    year: now.getFullYear(),
  };
}
