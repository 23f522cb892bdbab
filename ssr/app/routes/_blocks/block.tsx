import features from "../../../../shared/content/features.json";
import { FeatureGrid } from "~/components/blocks/feature-grid";
import { PlaceholderPage } from "~/components/placeholder-page";
import { routeMeta } from "~/lib/meta";
import { useRouteEntry } from "~/lib/route-entry";

export const meta = routeMeta;

export default function BlockPage() {
  const entry = useRouteEntry();
  // /blocks/features: the site's one feature-block component with its defaults (6 items, 4 columns).
  if (entry.id === "blocks-features") {
    return (
      <PlaceholderPage>
        <div className="mt-12 -mx-4 sm:-mx-6 lg:-mx-40 xl:-mx-64">
          <FeatureGrid items={features.features} />
        </div>
      </PlaceholderPage>
    );
  }
  return <PlaceholderPage />;
}
