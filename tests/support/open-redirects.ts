/**
 * The open-redirect payloads of SECURITY.md section 8: every return-path parameter must end on our
 * own site for each of them. The look-alike host names the browser-test site (localhost:4173).
 */
export const OPEN_REDIRECT_PAYLOADS = [
  "https://evil.example",
  "//evil.example",
  "/\\evil.example",
  "/%2f%2fevil.example",
  "/%5cevil.example",
  "https:evil.example",
  "http://localhost.evil.example",
  "https://localhost:4173.evil.example",
  "javascript:alert(1)",
  "data:text/html,x",
] as const;
