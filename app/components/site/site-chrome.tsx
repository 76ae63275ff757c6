import { useRouteLoaderData } from "react-router";
import type { loader as rootLoader } from "~/root";
import { Footer } from "./footer";
import { TopBar } from "./top-bar";

/** Top bar, main landmark and footer around a public page. */
export function SiteChrome({ children }: { children: React.ReactNode }) {
  const data = useRouteLoaderData<typeof rootLoader>("root");
  return (
    <>
      <TopBar siteName={data?.site.name ?? "Home"} />
      <main id="main" tabIndex={-1} className="focus:outline-none">
        {children}
      </main>
      {data ? <Footer site={data.site} /> : null}
    </>
  );
}
