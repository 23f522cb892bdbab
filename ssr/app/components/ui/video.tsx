// A video as a poster that links to where it plays (a "facade"): nothing from
// the video host loads until the visitor asks for it, and it works without
// JavaScript.
import { Image } from "./image";

export interface VideoProps {
  title: string;
  /** Where the video plays (opens in the host's player). */
  url: string;
  poster: { src: string; darkSrc?: string; width: number; height: number };
  /** e.g. "3:42" */
  duration?: string;
  caption?: string;
}

export function Video({ title, url, poster, duration, caption }: VideoProps) {
  return (
    <figure>
      <a href={url} className="group relative block overflow-hidden rounded-2xl ring-1 ring-gray-200 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-500 dark:ring-white/10">
        <Image src={poster.src} darkSrc={poster.darkSrc} alt="" width={poster.width} height={poster.height} className="h-auto w-full" />
        <span className="absolute inset-0 grid place-items-center bg-gray-950/30 transition group-hover:bg-gray-950/40">
          <span className="grid size-16 place-items-center rounded-full bg-white text-brand-700 shadow-xl transition group-hover:scale-105">
            <svg aria-hidden="true" viewBox="0 0 24 24" className="ml-1 size-7" fill="currentColor">
              <path d="M8 5.14v13.72a1 1 0 0 0 1.52.85l10.6-6.86a1 1 0 0 0 0-1.7L9.52 4.29A1 1 0 0 0 8 5.14z" />
            </svg>
          </span>
        </span>
        <span className="absolute bottom-3 left-3 rounded-md bg-gray-950/80 px-2 py-1 text-sm font-medium text-white">
          <span className="sr-only">Play video: </span>
          {title}
          {duration && <span className="ml-2 text-gray-200">{duration}</span>}
        </span>
      </a>
      {caption && <figcaption className="mt-3 text-sm text-gray-600 dark:text-gray-400">{caption}</figcaption>}
    </figure>
  );
}
