// The features page's screenshots (made by `npm run gallery`, listed in gallery/gallery.json):
// each a responsive WebP that opens enlarged. Without JavaScript the link opens the large picture;
// with it, a small inline script shows it in a native <dialog> (focus kept inside, Escape closes).
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";

export type GalleryEntry = {
  slug: string;
  title: string;
  alt: string;
  width: number;
  height: number;
  files: Record<string, string>;
};

export const GALLERY_PATH = join(import.meta.dirname, "gallery");

let loaded: GalleryEntry[] | undefined;
export function gallery(): GalleryEntry[] {
  if (!loaded) {
    const file = join(GALLERY_PATH, "gallery.json");
    loaded = existsSync(file) ? (JSON.parse(readFileSync(file, "utf8")) as GalleryEntry[]) : [];
  }
  return loaded;
}

/** A file of the gallery, by name (only names gallery.json lists are served). */
export function galleryFile(name: string): string | null {
  const listed = gallery().some((g) => Object.values(g.files).includes(name));
  return listed ? join(GALLERY_PATH, name) : null;
}

const src = (name: string | undefined) => `/gallery/${name ?? ""}`;

export function Shot({ entry, sizes, eager }: { entry: GalleryEntry; sizes: string; eager?: boolean }) {
  const small = entry.files["640"];
  const large = entry.files["1280"];
  return (
    <img
      src={src(small)}
      srcSet={`${src(small)} 640w, ${src(large)} 1280w`}
      sizes={sizes}
      width={640}
      height={Math.round((640 * entry.height) / entry.width)}
      alt={entry.alt}
      loading={eager ? "eager" : "lazy"}
      decoding="async"
      className="h-auto w-full rounded-lg border border-slate-200 shadow-sm"
    />
  );
}

/** The enlarge behaviour; its hash goes into the page's policy. */
export const ENLARGE_SCRIPT = `(function(){var d=document.getElementById("enlarge");if(!d||!d.showModal)return;var i=document.getElementById("enlarge-img"),t=document.getElementById("enlarge-title");document.querySelectorAll("a[data-enlarge]").forEach(function(a){a.addEventListener("click",function(e){e.preventDefault();i.src=a.getAttribute("href");i.alt=a.dataset.alt;t.textContent=a.dataset.title;d.showModal()})});d.addEventListener("click",function(e){if(e.target===d)d.close()})})()`;

export function Gallery() {
  const entries = gallery();
  if (entries.length === 0) return null;
  return (
    <section aria-labelledby="gallery-title" className="mx-auto mt-20 max-w-6xl px-6">
      <h2 id="gallery-title" className="text-center text-3xl font-bold tracking-tight text-slate-900">
        See it for yourself
      </h2>
      <p className="mt-3 text-center text-slate-600">
        Real screens of Bookplate, taken from the product itself. Select one to enlarge it.
      </p>
      <ul className="mt-10 grid gap-8 sm:grid-cols-2 lg:grid-cols-3">
        {entries.map((g) => (
          <li key={g.slug}>
            <figure>
              <a
                href={src(g.files["1280"])}
                data-enlarge=""
                data-title={g.title}
                data-alt={g.alt}
                className="block rounded-lg focus-visible:outline-2 focus-visible:outline-offset-4 focus-visible:outline-brand-600"
              >
                <Shot entry={g} sizes="(min-width: 1024px) 352px, (min-width: 640px) 45vw, 100vw" />
              </a>
              <figcaption className="mt-3 text-sm font-semibold text-slate-900">{g.title}</figcaption>
            </figure>
          </li>
        ))}
      </ul>
      <dialog
        id="enlarge"
        aria-labelledby="enlarge-title"
        className="m-auto w-[min(72rem,calc(100vw-2rem))] rounded-2xl bg-white p-4 shadow-xl backdrop:bg-slate-900/70"
      >
        <div className="mb-3 flex items-center justify-between gap-4">
          <h2 id="enlarge-title" className="text-lg font-semibold text-slate-900">
            Screenshot
          </h2>
          <form method="dialog">
            <button
              type="submit"
              className="rounded-lg border border-slate-300 px-3 py-1.5 text-sm font-semibold text-slate-800 hover:bg-slate-50 focus-visible:outline-2 focus-visible:outline-brand-600"
            >
              Close
            </button>
          </form>
        </div>
        <img id="enlarge-img" alt="" className="h-auto w-full rounded-lg" width={1280} height={800} />
      </dialog>
    </section>
  );
}
