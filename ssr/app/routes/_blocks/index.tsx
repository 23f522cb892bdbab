// /blocks: the catalogue's index, a thumbnail of every entry (a picture of
// its first example, light and dark, made from the demo page itself by
// scripts/images/thumbnails.mjs; decorative: the link names the entry) and
// the blog layout demos.
import { Link, useLoaderData } from "react-router";
import { routeMeta } from "~/lib/meta";
import { headingOf } from "~/lib/route-entry";
import { routes } from "@omnibus/shared/route-table";
import { catalogue } from "./catalogue";
import { catalogueData } from "./catalogue-data.server";
import { THUMBNAIL, thumbnailOf } from "./thumbnail";
import { CatalogueHeader } from "./showcase";
import type { Route } from "./+types/index";
import routeCopy from "virtual:route-copy";

export const handle = { routeCopy };
export const meta = routeMeta;

// The route table's paths reach the browser only through loader data: its
// client copy is slimmed to what every page needs (vite.config.ts).
const link = (r: (typeof routes)[number]) => ({ id: r.id, path: r.path, heading: headingOf(r) });

export function loader({ request }: Route.LoaderArgs) {
  const demos = (module: string) => routes.filter((r) => r.module === module).map(link);
  // Only the entries' one-line intros: the index shows pictures, so its code carries none of the components.
  const intros = Object.fromEntries(Object.entries(catalogue(catalogueData(request))).map(([id, block]) => [id, block.intro]));
  return {
    intros,
    index: { blocks: demos("_blocks/block.tsx"), advanced: demos("_blocks/advanced.tsx"), blogDemos: demos("_blocks/blog-demo.tsx") },
  };
}

export default function CatalogueIndex() {
  const data = useLoaderData<typeof loader>();
  const { intros } = data;
  const { blocks, advanced, blogDemos } = data.index;
  const groups = [
    { title: "Blocks", items: blocks },
    { title: "Advanced blocks", items: advanced },
  ];
  return (
    <div className="mx-auto max-w-7xl px-4 py-16 sm:px-6">
      <CatalogueHeader back={false} />
      {groups.map((group) => (
        <section key={group.title} className="mt-14">
          <h2 className="text-2xl font-bold tracking-tight">{group.title}</h2>
          <ul className="mt-6 grid gap-6 sm:grid-cols-2 lg:grid-cols-3">
            {group.items.map((route, i) => {
              const thumb = thumbnailOf(route.id);
              // The first picture is the page's largest paint on a phone (Lighthouse): not lazy.
              const loading = group === groups[0] && i === 0 ? "eager" : "lazy";
              return (
                <li key={route.id} className="relative flex flex-col overflow-hidden rounded-2xl ring-1 ring-gray-200 has-[a:focus-visible]:ring-2 has-[a:focus-visible]:ring-brand-500 dark:ring-white/10">
                  {/* The picture's own ratio (thumbnail.ts), so the inline CSS lays it out (app/critical.css). */}
                  <div data-thumbnail className="aspect-[5/2] overflow-hidden bg-gray-50 dark:bg-white/[0.03]">
                    {/* Plain <img>s, as the Image component draws a dark variant (importing it split it out of /'s code into a chunk of its own). */}
                    <img src={thumb.light} alt="" width={THUMBNAIL.width} height={THUMBNAIL.height} loading={loading} decoding="async" className="dark:hidden" />
                    <img src={thumb.dark} alt="" width={THUMBNAIL.width} height={THUMBNAIL.height} loading={loading} decoding="async" className="hidden dark:block" />
                  </div>
                  <div className="flex flex-1 flex-col border-t border-gray-200 p-4 dark:border-white/10">
                    <h3 className="font-semibold">
                      <Link to={route.path} className="after:absolute after:inset-0 focus-visible:outline-none">
                        {route.heading}
                      </Link>
                    </h3>
                    <p className="mt-1 text-sm text-gray-600 dark:text-gray-400">{intros[route.id]}</p>
                  </div>
                </li>
              );
            })}
          </ul>
        </section>
      ))}
      <section className="mt-14">
        <h2 className="text-2xl font-bold tracking-tight">Blog layouts</h2>
        <p className="mt-2 text-gray-600 dark:text-gray-400">The real articles in different list and article layouts.</p>
        <ul className="mt-6 grid gap-3 sm:grid-cols-2 lg:grid-cols-3">
          {blogDemos.map((route) => (
            <li key={route.id}>
              <Link to={route.path} className="block rounded-xl px-4 py-3 ring-1 ring-gray-200 hover:ring-brand-500 dark:ring-white/10">
                <span className="font-semibold">{route.heading}</span>
                <span className="block text-sm text-gray-600 dark:text-gray-400">{route.path}</span>
              </Link>
            </li>
          ))}
        </ul>
      </section>
    </div>
  );
}
