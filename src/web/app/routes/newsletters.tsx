import { NewslettersPage } from "../../features/newsletters/index.ts";

export function NewslettersRoute() {
  return <NewslettersPage />;
}
