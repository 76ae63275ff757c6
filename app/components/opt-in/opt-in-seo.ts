export const OPT_IN_SEO = {
  title: "Free SMS Market Alerts",
  description:
    "Sign up for free breaking market alerts by text message: gold, silver, bonds, the Fed and the moves that matter to American investors.",
};
