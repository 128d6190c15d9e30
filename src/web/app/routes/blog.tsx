import { BlogPage } from "../../features/blog/index.ts";

export function BlogRoute() {
  return <BlogPage />;
}
