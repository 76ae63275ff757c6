import { LEAD_PAGE_PATH, LEAD_SUB_ID } from "~/services/analytics/lead-gen";

/** The quality columns of every sign-up table (decision 150). */
const SIGN_UP_FIGURES = ["Sign-ups", "Confirmed", "7+ days old", "Still subscribed at 7 days", "30+ days old", "Still subscribed at 30 days", "Left within 7 days"] as const;

/** Every word of /admin/analytics and its CSV files (decisions 146, 150). */
export const ANALYTICS_TEXTS = {
  title: "Analytics",
  description: "Page views and daily unique visitors, counted on this server.",
  intro:
    "Counted on this server as each page is answered: no cookie, no JavaScript, no third party. Days are in the site’s time zone.",
  range: { legend: "Dates", from: "From", to: "To", submit: "Show" },
  views: "Page views",
  averageDailyVisitors: "Daily unique visitors (average per day)",
  visitorsNote:
    "A daily unique visitor is one network and browser on one day. The days’ figures are not added up: the same person on two days is two daily visitors.",
  /** The figure of the same number of days just before the range, and the change from it. */
  previous: (value: number, current: number, from: string, to: string) => {
    const change = value === 0 ? (current === 0 ? "no change" : "none before") : `${current >= value ? "+" : "−"}${Math.abs(Math.round(((current - value) / value) * 1000) / 10)}%`;
    return `${change} against ${value.toLocaleString("en-US")} from ${from} to ${to}`;
  },
  chartTitle: (from: string, to: string) => `Page views and daily unique visitors, ${from} to ${to}`,
  chartDescription: (views: number, average: number, peakDay: string, peakViews: number) =>
    `${views.toLocaleString("en-US")} page views in all, ${average.toLocaleString("en-US")} daily unique visitors on average; the busiest day was ${peakDay} with ${peakViews.toLocaleString("en-US")} views. The table below lists every day.`,
  tables: {
    days: { caption: "By day", columns: ["Day", "Page views", "Daily unique visitors"] },
    pages: { caption: "Top pages", columns: ["Page", "Page views", "Daily unique visitors (average)"] },
    channels: { caption: "Channels", columns: ["Channel", "Page views"] },
    landings: { caption: "Entry pages by channel", columns: ["Page", "Channel", "Page views"] },
    referrers: { caption: "Referring sites", columns: ["Site", "Page views"] },
    campaigns: { caption: "Sources and campaigns", columns: ["Source", "Medium", "Campaign", "Page views"] },
    subIds: { caption: "Sub-ids", columns: ["Sub-id", "Page views"] },
    clickIds: { caption: "Ad click ids present", columns: ["Parameter", "Page views"] },
    excluded: { caption: "Left out (not people), by reason", columns: ["Reason", "Requests"] },
    signUpsByPage: { caption: "Sign-ups by the page that held the form", columns: ["Page", "List", ...SIGN_UP_FIGURES] },
    signUpsByEntry: { caption: "Sign-ups by the page the visit came in on", columns: ["Entry page", "List", ...SIGN_UP_FIGURES] },
    signUpsBySource: { caption: "Sign-ups by source and campaign", columns: ["Channel", "Source", "Medium", "Campaign", "List", ...SIGN_UP_FIGURES] },
    signUpsBySubId: { caption: "Sign-ups by sub-id", columns: ["Sub-id", "List", ...SIGN_UP_FIGURES] },
    offerClicksBySource: { caption: "Offer clicks by source and campaign", columns: ["Channel", "Source", "Medium", "Campaign", "Clicks by people", "Left out"] },
    offerClicksBySubId: { caption: "Offer clicks by sub-id", columns: ["Sub-id", "Clicks by people", "Left out"] },
    offerClicksExcluded: { caption: "Offer clicks left out (not people), by reason", columns: ["Reason", "Requests"] },
    linkClicks: { caption: "Links in alerts and newsletter issues", columns: ["List", "Alert or issue", "Clicks by people", "People who clicked", "Fetched by machines"] },
    leads: {
      caption: "Ad landing page: leads and what they cost",
      columns: [
        "Source",
        "Campaign",
        `Sub-id (${LEAD_SUB_ID})`,
        "Landing visits",
        "Opt-ins",
        "Confirmed",
        "Conversion rate",
        "Cost (USD)",
        "Cost per lead",
        "Cost per confirmed lead",
        "Opt-ins 7+ days old",
        "Opt-out rate within 7 days",
      ],
    },
  },
  linkClicksHeading: "E-mail and SMS links",
  linkClicksNote:
    "Requests for the short links of the alerts and newsletter issues in these days. Clicks by people and the people who clicked (a hash of network and browser, as on each alert’s and issue’s results); fetched by machines: link previews, mail scanners that open every link as a message arrives, HEAD requests and scripts, counted apart and never added to the clicks (decision 151). A text’s link is shared by everyone who received it, so a click is not tied to a subscriber.",
  leadsHeading: "The ad landing page as a lead-gen report",
  leadsNote: `Visits to ${LEAD_PAGE_PATH} by people (bots left out) and the sign-ups made there, by utm_source, utm_campaign and ${LEAD_SUB_ID}, with the costs entered for these days. Conversion rate: opt-ins per landing visit. Cost per lead and per confirmed lead: the cost of the row shared over its opt-ins, to the cent. A cost entered for a whole source (no campaign or sub-id) is in a row of its own and in the source’s total, so a source’s total always carries everything paid for it. Opt-out rate within 7 days: of the opt-ins at least 7 days old, the share who replied STOP or unsubscribed within 7 days. Clicks on SMS links are not split by source: a text's link is shared by everyone who received it and the click log does not say who clicked (decision 154).`,
  leads: { noSource: "(none)", allCampaigns: "All campaigns and sub-ids", costs: "Enter or import costs" },
  signUpsHeading: "Sign-ups and what became of them",
  signUpsNote:
    "Sign-ups made in these days, by where the visit came from (decision 149). The forms are on the home page and the opt-in page; the article a reader came in on (from a search, say) before following its sign-up button is the entry page. Confirmed: the e-mail address confirmed, or the SMS \"Y\" replied (or no reply asked). Still subscribed at 7 and 30 days: counted among the sign-ups that are at least that old (the column before). Left within 7 days: unsubscribed or replied STOP. Unknown: no visit was found for the sign-up (the visit was seen by a process that had not yet written it, or the request came from elsewhere).",
  offerHeading: "Offer clicks",
  offerNote:
    "Clicks on the sponsor’s offer buttons of /gold, through this site’s own redirect (/go/offer), by where the visit came from: the page’s own address when it carried sub-ids or utm_* tags, else the visitor’s entry of the day. Left out: link checkers (HEAD), previews, crawlers, scanners and requests without a browser’s headers, counted apart and never added to the people’s clicks.",
  lists: { email: "E-mail", sms: "SMS" } as Record<string, string>,
  csv: "CSV",
  none: "Nothing counted in these days.",
  humansBeside: (humans: number, excluded: number) =>
    `${humans.toLocaleString("en-US")} page views by people counted, ${excluded.toLocaleString("en-US")} requests left out.`,
  notSeen:
    "What this page cannot see: pages a CDN or the browser answers from its cache without asking this server, pages a browser prerenders and shows without a request, and the last few seconds of counts (each server process writes its counts every few seconds).",
  channels: {
    search: "Search",
    social: "Social",
    email: "E-mail",
    sms: "SMS",
    paid: "Paid",
    direct: "Direct",
    other: "Other sites",
    internal: "From this site",
    unknown: "Unknown",
  } as Record<string, string>,
  reasons: {
    prefetch: "Prefetch or prerender",
    "no-user-agent": "No user agent",
    "link-preview": "Link preview",
    headless: "Headless browser",
    "bot-list": "Known crawler or bot",
    "not-a-browser": "Not a browser",
    "missing-headers": "Missing browser headers",
    "rate-limit": "Too many views a minute",
  } as Record<string, string>,
  badRange: "Bad dates",
} as const;

const count = (value: number, one: string, many: string) => `${value.toLocaleString("en-US")} ${value === 1 ? one : many}`;

/** The words of the "Last 30 minutes" section of /admin/analytics (decision 156). */
export const ANALYTICS_LIVE_TEXTS = {
  heading: "Last 30 minutes",
  lag: (flushSeconds: number) =>
    `Counted by people’s page views as they happen; each server process writes its counts every ${count(flushSeconds, "second", "seconds")}, so the figures lag by at most that much.`,
  refreshing: "This section updates itself while the page is open.",
  asOf: (time: string) => `As of ${time}`,
  reload: "Reload",
  views: "Page views",
  visitors: "Visitors",
  visitorsNote: "A visitor is one network and browser; someone seen in several minutes counts once.",
  chartTitle: (from: string, to: string) => `Page views per minute, ${from} to ${to}`,
  chartDescription: (views: number, visitors: number, peakLabel: string, peakViews: number) =>
    views === 0
      ? "No page views by people in the last 30 minutes."
      : `${count(views, "page view", "page views")} by ${count(visitors, "visitor", "visitors")} in the last 30 minutes; the busiest minute was ${peakLabel} with ${count(peakViews, "view", "views")}. The table below lists the pages.`,
  pagesCaption: "Top pages of the last 30 minutes",
  pagesColumns: ["Page", "Page views"],
  none: "No page views by people in the last 30 minutes.",
} as const;
