// The site's own server entry: the floor renders exactly as the site does.
export { default, streamTimeout } from "../../../ssr/app/entry.server";
