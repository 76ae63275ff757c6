/** Every word of /admin/analytics/costs (decision 155). */
export const AD_COST_TEXTS = {
  title: "Ad costs",
  description: "What was paid for traffic to the ad landing page, per day and source.",
  intro:
    "What was paid for traffic to the ad landing page, per day and source, in US dollars. Split a day’s cost by campaign and sub-id when the ad platform reports it so; leave them empty for the whole source. Entering a date, source, campaign and sub-id again replaces its amount. Every change is written to the audit log. The lead-gen report on the Analytics page shares these costs over the opt-ins.",
  back: "← Analytics",
  form: {
    legend: "Enter a cost",
    day: "Date",
    source: "Source (utm_source)",
    campaign: "Campaign (utm_campaign, optional)",
    subId: (param: string) => `Sub-id (${param}, optional)`,
    amount: "Amount (USD)",
    submit: "Save cost",
  },
  importHeading: "Import costs from a CSV file",
  importIntro: (columns: string) =>
    `A CSV file whose first line names the columns: ${columns}. Only date, source and amount are required; the amount in dollars and cents (125.40). A file is imported whole or not at all: if any line is refused, nothing is stored and every refused line is listed with its reason, so the file can be fixed and sent again.`,
  importSubmit: "Import",
  file: "CSV file",
  listHeading: (from: string, to: string) => `Costs entered for ${from} to ${to}`,
  columns: ["Date", "Source", "Campaign", "Sub-id", "Amount (USD)", ""],
  remove: "Remove",
  removeLabel: (day: string, source: string) => `Remove the cost of ${source} on ${day}`,
  none: "No costs entered for these days.",
  total: "Total",
  refusedHeading: (count: number) => `Refused lines (${count.toLocaleString("en-US")})`,
  refusedColumns: ["Line", "Reason"],
  notices: {
    saved: (amount: string, source: string, day: string) => ({ title: "Cost Saved", description: `$${amount} for ${source} on ${day}.`, variant: "success" as const }),
    unchanged: { title: "Nothing Changed", description: "That amount was already entered.", variant: "info" as const },
    removed: { title: "Cost Removed", description: "The cost was removed.", variant: "success" as const },
    notFound: { title: "Not Removed", description: "There was no such cost.", variant: "error" as const },
    refused: (reason: string) => ({ title: "Not Saved", description: `Not saved: ${reason}.`, variant: "error" as const }),
    imported: (lines: number, changed: number) => ({
      title: "Imported",
      description: `${lines.toLocaleString("en-US")} costs read, ${changed.toLocaleString("en-US")} new or changed.`,
      variant: "success" as const,
    }),
    notImported: (description: string) => ({ title: "Not Imported", description, variant: "error" as const }),
    linesRefused: (count: number) => `${count.toLocaleString("en-US")} lines refused; nothing was imported. Fix them and send the file again.`,
  },
} as const;
