import type { IconNode } from "lucide";

/**
 * A Lucide icon drawn from its data (the `lucide` package's icon nodes), always decorative. The
 * renderer is these few lines instead of lucide-react's runtime, which every hydrating page would
 * download (decision 056).
 */
export function Icon({ node, className }: { node: IconNode; className?: string }) {
  return (
    <svg
      xmlns="http://www.w3.org/2000/svg"
      width="24"
      height="24"
      viewBox="0 0 24 24"
      fill="none"
      stroke="currentColor"
      strokeWidth="2"
      strokeLinecap="round"
      strokeLinejoin="round"
      className={className}
      aria-hidden="true"
      focusable="false"
    >
      {node.map(([Tag, attributes], index) => (
        <Tag key={index} {...attributes} />
      ))}
    </svg>
  );
}
