// The Newsletters screen's view of /api/newsletters: one place knows the wire shape.
import { useQuery } from "@tanstack/react-query";
import type {
  Newsletter,
  NewsletterCreate,
  NewsletterFigures,
  NewsletterPreview,
  NewsletterUpdate,
} from "../../../shared/schemas/newsletter.ts";
import type { UploadedImage } from "../../../shared/schemas/uploads.ts";
import { client, read } from "../../lib/api.ts";

export type { Newsletter, NewsletterFigures } from "../../../shared/schemas/newsletter.ts";

export const NEWSLETTERS_KEY = ["newsletters"] as const;

export function useNewsletters() {
  return useQuery({
    queryKey: NEWSLETTERS_KEY,
    queryFn: async () => read(client.newsletters.$get()),
  });
}

/** The figures; `every` says how soon to read them again (false: not by itself). */
export function useFigures(id: string, enabled: boolean, every: (f: NewsletterFigures | undefined) => number | false) {
  return useQuery({
    queryKey: [...NEWSLETTERS_KEY, id, "figures"],
    enabled,
    refetchInterval: (q) => every(q.state.data),
    queryFn: async () => read(client.newsletters[":id"].figures.$get({ param: { id } })),
  });
}

export async function createNewsletter(body: NewsletterCreate): Promise<Newsletter> {
  return (await read(client.newsletters.$post({ json: body }))).newsletter;
}

export async function updateNewsletter(id: string, body: NewsletterUpdate): Promise<Newsletter> {
  return (await read(client.newsletters[":id"].$patch({ param: { id }, json: body }))).newsletter;
}

export async function deleteNewsletter(id: string): Promise<void> {
  await read(client.newsletters[":id"].$delete({ param: { id } }));
}

/** The mail readers will get from these words (its HTML), for the editor's preview. */
export async function previewNewsletter(draft: NewsletterPreview): Promise<string> {
  return (await read(client.newsletters.preview.$post({ json: draft }))).html;
}

export async function sendTest(id: string): Promise<string> {
  return (await read(client.newsletters[":id"].test.$post({ param: { id } }))).sentTo;
}

/** Now (no `at`), or at a time to come. */
export async function sendNewsletter(id: string, at?: string): Promise<Newsletter> {
  return (await read(client.newsletters[":id"].send.$post({ param: { id }, json: at ? { at } : {} }))).newsletter;
}

export async function cancelNewsletter(id: string): Promise<Newsletter> {
  return (await read(client.newsletters[":id"].cancel.$post({ param: { id } }))).newsletter;
}

/** Pictures go where the post editor's go (the same uploads). */
export async function uploadImage(file: File): Promise<UploadedImage> {
  const form = new FormData();
  form.append("file", file);
  return (await read(client.posts.images.$post({}, { init: { body: form, credentials: "same-origin" } }))).image;
}

export type { NewsletterFigures as Figures };
