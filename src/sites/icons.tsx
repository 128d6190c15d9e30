// The icons of public pages, drawn once at start-up. lucide-react builds each icon's element
// tree on every render, which was a measurable share of an uncached page; the markup never
// changes, so each icon is rendered to a string once and inlined from then on. Every icon on a
// public page is decorative (aria-hidden): its text sits beside it.
import * as Lucide from "lucide-react";
import { renderToStaticMarkup } from "react-dom/server";

export type StaticIcon = (props: { "aria-hidden": "true" }) => React.JSX.Element;

export function staticIcon(Icon: Lucide.LucideIcon): StaticIcon {
  const markup = renderToStaticMarkup(<Icon aria-hidden="true" />);
  const m = /^<svg ([^>]*)>([\s\S]*)<\/svg>$/.exec(markup);
  const attrs = Object.fromEntries([...(m?.[1] ?? "").matchAll(/([a-zA-Z-]+)="([^"]*)"/g)].map((a) => [a[1], a[2]]));
  if (!m || attrs.viewBox === undefined) throw new Error(`unexpected icon markup: ${markup.slice(0, 80)}`);
  const inner = { __html: m[2] as string };
  const svg = (
    <svg
      xmlns={attrs.xmlns}
      width={attrs.width}
      height={attrs.height}
      viewBox={attrs.viewBox}
      fill={attrs.fill}
      stroke={attrs.stroke}
      strokeWidth={attrs["stroke-width"]}
      strokeLinecap={attrs["stroke-linecap"] as "round"}
      strokeLinejoin={attrs["stroke-linejoin"] as "round"}
      className={attrs.class}
      aria-hidden="true"
      // biome-ignore lint/security/noDangerouslySetInnerHtml: lucide's own markup, rendered by React above
      dangerouslySetInnerHTML={inner}
    />
  );
  return () => svg;
}

export const ArrowRight = staticIcon(Lucide.ArrowRight);
export const ArrowLeft = staticIcon(Lucide.ArrowLeft);
export const AtSign = staticIcon(Lucide.AtSign);
export const Book = staticIcon(Lucide.Book);
export const Bookmark = staticIcon(Lucide.Bookmark);
export const BookOpen = staticIcon(Lucide.BookOpen);
export const Camera = staticIcon(Lucide.Camera);
export const Cloud = staticIcon(Lucide.Cloud);
export const Feather = staticIcon(Lucide.Feather);
export const FileText = staticIcon(Lucide.FileText);
export const Globe = staticIcon(Lucide.Globe);
export const Headphones = staticIcon(Lucide.Headphones);
export const Home = staticIcon(Lucide.Home);
export const Library = staticIcon(Lucide.Library);
export const Mail = staticIcon(Lucide.Mail);
export const MenuIcon = staticIcon(Lucide.Menu);
export const Music = staticIcon(Lucide.Music);
export const Newspaper = staticIcon(Lucide.Newspaper);
export const Pen = staticIcon(Lucide.Pen);
export const PenTool = staticIcon(Lucide.PenTool);
export const Play = staticIcon(Lucide.Play);
export const ShoppingCart = staticIcon(Lucide.ShoppingCart);
export const SquarePen = staticIcon(Lucide.SquarePen);
export const User = staticIcon(Lucide.User);
export const Users = staticIcon(Lucide.Users);
