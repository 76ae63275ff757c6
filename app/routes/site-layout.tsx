import { Outlet } from "react-router";
import { SiteChrome } from "~/components/site/site-chrome";

export default function SiteLayout() {
  return (
    <SiteChrome>
      <Outlet />
    </SiteChrome>
  );
}
