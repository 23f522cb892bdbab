// /terms-of-use, /privacy-policy, /cookie-policy, /disclaimer: Markdown from
// shared/content/policies rendered on the server, with the company's details filled in.
import { data, useLoaderData } from "react-router";
import { Prose } from "~/components/content/prose";
import { PreviewBanner } from "~/components/content/preview-banner";
import { contentLabels, pageContent, policy } from "~/lib/content.server";
import { routeMeta } from "~/lib/meta";
import type { Route } from "./+types/policy";
import routeCopy from "virtual:route-copy";

export const handle = { routeCopy };
export const meta = routeMeta;

export function loader({ request }: Route.LoaderArgs) {
  const slug = new URL(request.url).pathname.replace(/^\/+|\/+$/g, "");
  const page = policy(request, slug);
  if (!page) throw data(null, { status: 404 });
  const { preview } = pageContent(request);
  return { ...page, preview, labels: { preview: contentLabels.previewBanner, expires: contentLabels.previewExpires } };
}

export default function PolicyPage() {
  const { title, html, preview, labels } = useLoaderData<typeof loader>();
  return (
    <>
    <PreviewBanner preview={preview} label={labels.preview} expiresLabel={labels.expires} />
    <article className="mx-auto max-w-3xl px-4 py-16 sm:px-6 lg:py-24">
      <h1 className="text-4xl font-bold tracking-tight text-balance sm:text-5xl">{title}</h1>
      <Prose html={html} className="mt-8" />
    </article>
    </>
  );
}
