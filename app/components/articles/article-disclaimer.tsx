import { Link } from "react-router";

export function ArticleDisclaimer({ siteName }: { siteName: string }) {
  return (
    <aside aria-label="Disclaimer" className="mt-12 rounded-lg border-l-4 border-gold bg-muted p-5 text-sm leading-relaxed">
      <p>
        <strong>Disclaimer:</strong> This article is for educational purposes only and is not personalized investment
        advice. {siteName} is not a licensed financial advisor. All investments carry risk, including the loss of
        principal. Consult a qualified, licensed professional before making investment decisions. Read our full{" "}
        <Link to="/disclaimer" className="font-semibold text-accent-strong underline">
          disclaimer
        </Link>
        .
      </p>
    </aside>
  );
}
