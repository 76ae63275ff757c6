import { SOON_AFTER_DELIVERY_SECONDS, type MachineClickReason } from "~/services/sending/click-judge";

/** What staff read for each kind of machine fetch of a short link (decision 151). */
export const MACHINE_CLICK_LABELS: Record<MachineClickReason, string> = {
  head: "Checked the link without opening it (HEAD)",
  "no-user-agent": "No browser named",
  "link-preview": "Link preview (messaging and social apps)",
  "mail-scanner": "Mail security scanner",
  headless: "Automated browser",
  "bot-list": "Known bot or crawler",
  "not-a-browser": "A program, not a browser",
  "missing-headers": "Browser name without a browser’s headers",
  "soon-after-delivery": `Opened within ${SOON_AFTER_DELIVERY_SECONDS} seconds of the e-mail being sent`,
};

export const CLICK_FIGURES = {
  clicks: { label: "Clicks by people", counts: "link clicks judged to be people's (machines' fetches are counted apart)" },
  uniqueClickers: { label: "Unique clickers", counts: "different people who clicked" },
  machineFetches: {
    label: "Machine fetches",
    counts: "requests for the links by mail scanners, link previews and other programs, never counted as clicks; by kind below",
  },
} as const;
