import { useParams } from "react-router";
import { PlaceholderPage } from "~/components/placeholder-page";
import { routeMeta } from "~/lib/meta";

export const meta = routeMeta;

export default function BlogArticlePage() {
  const { slug } = useParams();
  return (
    <PlaceholderPage>
      <p className="mt-4 text-sm text-gray-500">
        Slug: <code>{slug}</code>
      </p>
    </PlaceholderPage>
  );
}
