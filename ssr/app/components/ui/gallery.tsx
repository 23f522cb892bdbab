// A grid of pictures with captions; each has its dark-mode variant when given.
import { Image } from "./image";

export interface GalleryImage {
  src: string;
  darkSrc?: string;
  alt: string;
  width: number;
  height: number;
  caption?: string;
}

export function Gallery({ images, columns = 3 }: { images: GalleryImage[]; columns?: 2 | 3 }) {
  return (
    <ul className={`grid gap-4 sm:grid-cols-2 ${columns === 3 ? "lg:grid-cols-3" : ""}`}>
      {images.map((image) => (
        <li key={image.src + image.alt}>
          <figure className="overflow-hidden rounded-2xl bg-gray-50 ring-1 ring-gray-200 dark:bg-white/5 dark:ring-white/10">
            <Image src={image.src} darkSrc={image.darkSrc} alt={image.alt} width={image.width} height={image.height} className="h-auto w-full" />
            {image.caption && <figcaption className="px-4 py-3 text-sm text-gray-600 dark:text-gray-400">{image.caption}</figcaption>}
          </figure>
        </li>
      ))}
    </ul>
  );
}
