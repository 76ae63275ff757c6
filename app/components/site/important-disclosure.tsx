export function ImportantDisclosure({ siteName }: { siteName: string }) {
  return (
    <p>
      <strong className="text-primary-foreground">Important Disclosure:</strong> The content on this website is for
      educational and informational purposes only and is not personalized investment advice. {siteName} is not a
      licensed financial advisor, registered investment adviser or broker-dealer. All investments carry risk,
      including the possible loss of principal. Past performance does not guarantee future results. Consult a
      qualified, licensed professional before making investment decisions.
    </p>
  );
}
