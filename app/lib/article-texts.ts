/** The words of the editorial desk: field messages and the texts readers see around an article. */
export const ARTICLE_FIELD_MESSAGES = {
  slugRequired: "Enter the address (slug) of the article.",
  slugTooLong: "The slug can be at most 100 characters.",
  slugFormat: "Use lower-case letters, digits and single hyphens only, for example fed-rate-outlook.",
  slugTaken: "Another article already uses this slug.",
  slugLocked: "This article has been public: its slug cannot change, since links to it would break. Create a new article instead.",
  titleLength: "The title needs 10 to 120 characters.",
  excerptLength: "The excerpt needs 40 to 300 characters.",
  bodyRequired: "Write the article before publishing it.",
  categoryRequired: "Choose a category.",
  imageFormat: "Give a cover image: a path under /images/ or an uploaded image (/media/…).",
  imageAltLength: "Describe the cover image in at least 10 characters.",
  authorRequired: "Choose an author.",
  seoTitleLength: "The SEO title can be at most 70 characters.",
  seoDescriptionLength: "The SEO description can be at most 170 characters.",
  sponsorNameRequired: "Name the sponsor of a sponsored article.",
  sponsorNameLength: "The sponsor’s name can be at most 120 characters.",
  scheduleInPast: "Choose a time in the future.",
  scheduleInvalid: "Enter a date and time in the chosen time zone.",
} as const;

export const AUTHOR_FIELD_MESSAGES = {
  nameRequired: "Enter the author’s name (2 to 80 characters).",
  slugFormat: "Use lower-case letters, digits and single hyphens only, for example jane-doe.",
  slugTaken: "Another author already uses this slug.",
  bioLength: "The bio can be at most 2000 characters.",
  credentialsLength: "The credentials can be at most 200 characters.",
  photoFormat: "Give a path under /images/ or an uploaded image (/media/…), or leave it empty.",
  linksFormat: "Write one link per line as: Label | https://address",
} as const;

export const ARTICLE_TEXTS = {
  advertisement: "Advertisement",
  sponsoredBy: (name: string) => `Sponsored by ${name}`,
  removedTitle: "This article has been removed",
  removedDescription: "The article you are looking for is no longer published.",
  previewBanner: "Preview of an unpublished version: readers do not see this page.",
  // Under every article, beside a body set in typographic quotes: the same curly apostrophes here.
  endSubscribeHeading: "Don’t miss the next move",
  endSubscribeText: "Our market analysis by e-mail, and breaking market alerts by text if you want them. Free, and you can stop at any time.",
  endNewsletterButton: "Get the newsletter",
  endAlertsButton: "Text me market alerts",
  keepReading: "Keep reading",
} as const;

export const ARTICLE_STATUS_LABEL: Record<string, string> = { draft: "Draft", scheduled: "Scheduled", published: "Published" };
