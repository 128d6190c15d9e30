// The author's books an editor offers for a book card (ADR 071): those readers can see; [] while
// they load, so the editor's tools are the same from the first render.
import { useQuery } from "@tanstack/react-query";
import type { BookChoice } from "../components/book-card-node.tsx";
import { client, readField } from "./api.ts";

export function useBookChoices(): BookChoice[] {
  const books = useQuery({
    queryKey: ["book-choices"],
    queryFn: () => readField(client.books.$get(), "books"),
  });
  return (books.data ?? [])
    .filter((b) => b.visibilityEnabled)
    .map((b) => ({ id: b.id, title: b.title, coverUrl: b.coverImageUrl ?? null }));
}
