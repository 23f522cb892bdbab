import logos from "../../../../shared/content/logos.json";
import { LogoStrip } from "~/components/landing/logo-strip";
import { PlaceholderPage } from "~/components/placeholder-page";
import { routeMeta } from "~/lib/meta";
import { useRouteEntry } from "~/lib/route-entry";

export const meta = routeMeta;

export default function AdvancedPage() {
  const entry = useRouteEntry();
  // /blocks/advanced/clients: the client-logo strip with its default limit (8).
  if (entry.id === "blocks-advanced-clients") {
    return (
      <PlaceholderPage>
        <LogoStrip logos={logos.logos} width={logos.width} height={logos.height} className="mt-12" />
      </PlaceholderPage>
    );
  }
  return <PlaceholderPage />;
}
