/** The star-and-stripe mark beside the brand name (decorative). */
export function BrandMark({ className }: { className?: string }) {
  return (
    <svg viewBox="0 0 32 32" width="32" height="32" aria-hidden="true" focusable="false" className={className}>
      <rect width="32" height="32" rx="6" fill="#0b2545" />
      <path d="M4 20h24v3H4zm0 5h24v3H4z" fill="#b22234" />
      <path d="M16 4l2.6 5.6 6 .6-4.5 4 1.3 6-5.4-3.1-5.4 3.1 1.3-6-4.5-4 6-.6z" fill="#c9a227" />
    </svg>
  );
}
