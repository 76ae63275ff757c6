import { pictureModel } from "~/lib/media-image";

type ResponsiveImageProps = {
  src: string;
  alt: string;
  sizes: string;
  /** The page's main image: loaded at once with high priority instead of lazily. */
  priority?: boolean;
  className?: string;
  /** For `/images/...` paths, whose size the reference does not carry. */
  width?: number;
  height?: number;
};

/**
 * An uploaded image (`/media/<id>/<W>x<H>`) as a <picture> with AVIF and WebP sources and a JPEG
 * <img> (width, height, srcset, sizes); any other path as a plain <img> with the given size.
 */
export function ResponsiveImage({ src, alt, sizes, priority, className, width, height }: ResponsiveImageProps) {
  const model = pictureModel(src);
  const loading = priority ? ("eager" as const) : ("lazy" as const);
  const fetchPriority = priority ? ("high" as const) : undefined;
  if (model.sources.length === 0) {
    return <img src={src} alt={alt} width={width} height={height} loading={loading} fetchPriority={fetchPriority} decoding="async" className={className} />;
  }
  return (
    <picture>
      {model.sources.map((source) => (
        <source key={source.type} type={source.type} srcSet={source.srcSet} sizes={sizes} />
      ))}
      <img
        src={model.img.src}
        srcSet={model.img.srcSet}
        sizes={sizes}
        width={model.img.width}
        height={model.img.height}
        alt={alt}
        loading={loading}
        fetchPriority={fetchPriority}
        decoding="async"
        className={className}
      />
    </picture>
  );
}
