import { useEffect, useRef, useState } from "react";
import { PLACEHOLDER_IMAGE } from "~/lib/constants";

/** The media of a waiting picture's <source>: true wherever scripts run (lib/near-images.ts releases it; the same text there). */
export const NEAR_MEDIA = "(scripting: enabled)";

/** What a waiting picture shows: an SVG without a size of its own, so the <img>'s width and height attributes give its box and ratio. */
const WAITING = "data:image/svg+xml,%3Csvg%20xmlns='http://www.w3.org/2000/svg'/%3E";

export interface ImageProps {
  src: string;
  /** Shown instead of src when the dark theme is on. */
  darkSrc?: string;
  alt: string;
  /** Intrinsic size; required so the layout never shifts while images load. */
  width: number;
  height: number;
  /** The file in other widths (srcset, also darkSrcSet) and the width the
   * image takes on the page: the browser picks the file. */
  srcSet?: string;
  darkSrcSet?: string;
  sizes?: string;
  className?: string;
}

/**
 * An image with an optional dark variant and a placeholder of the same size
 * when it fails to load (SPEC §2, §4). The dark switch is CSS-only (`dark:`
 * variant of the `dark` class on <html>), so server and client render the same
 * markup whatever the visitor's theme.
 */
export function Image({ darkSrc, darkSrcSet, className = "", ...img }: ImageProps) {
  if (!darkSrc) {
    return <FallbackImg {...img} className={className} />;
  }
  return (
    <>
      <FallbackImg {...img} variant="light" className={`dark:hidden ${className}`} />
      <FallbackImg {...img} src={darkSrc} srcSet={darkSrcSet} variant="dark" className={`hidden dark:block ${className}`} />
    </>
  );
}

interface FallbackImgProps extends Omit<ImageProps, "darkSrc" | "darkSrcSet"> {
  variant?: "light" | "dark";
}

function FallbackImg({ src, srcSet, sizes, alt, width, height, className, variant }: FallbackImgProps) {
  const ref = useRef<HTMLImageElement>(null);
  // Remember which src failed, so a new src gets its own chance.
  const [failedSrc, setFailedSrc] = useState<string | null>(null);
  const failed = failedSrc === src;

  // An error before hydration fires no React onError: check the element once mounted.
  useEffect(() => {
    const img = ref.current;
    if (img && img.complete && img.naturalWidth === 0 && img.getAttribute("src") === src) {
      setFailedSrc(src);
    }
  }, [src]);

  return (
    // The <picture> is an inline box around the <img> (a block in the site's
    // base styles): same layout as the bare <img>.
    <picture>
      {/* Nothing fetched until the picture is on the screen or the visitor interacts (lib/near-images.ts). */}
      <source media={NEAR_MEDIA} srcSet={WAITING} />
      <img
        ref={ref}
        src={failed ? PLACEHOLDER_IMAGE : src}
        srcSet={failed ? undefined : srcSet}
        sizes={failed ? undefined : sizes}
        alt={alt}
        width={width}
        height={height}
        // Every image is lazy: none is a page's largest paint, and the lazy
        // ones still above the fold load at once.
        loading="lazy"
        decoding="async"
        data-theme-variant={variant}
        data-failed={failed || undefined}
        onError={() => setFailedSrc(src)}
        className={className}
      />
    </picture>
  );
}
