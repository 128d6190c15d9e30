// The Blog screen's view of /api/posts: one place knows the wire shape.
import { useQuery } from "@tanstack/react-query";
import type { Post, PostCreate, PostUpdate } from "../../../shared/schemas/post.ts";
import type { UploadedImage } from "../../../shared/schemas/uploads.ts";
import { client, read } from "../../lib/api.ts";

export type { Post } from "../../../shared/schemas/post.ts";

export const POSTS_KEY = ["posts"] as const;

export function usePosts() {
  return useQuery({
    queryKey: POSTS_KEY,
    queryFn: async () => (await read(client.posts.$get())).posts,
  });
}

export async function createPost(body: PostCreate): Promise<Post> {
  return (await read(client.posts.$post({ json: body }))).post;
}

export async function updatePost(id: string, body: PostUpdate): Promise<Post> {
  return (await read(client.posts[":id"].$patch({ param: { id }, json: body }))).post;
}

export async function deletePost(id: string): Promise<void> {
  await read(client.posts[":id"].$delete({ param: { id } }));
}

/** Multipart (the browser sets the boundary): the form is the request's own body. */
export async function uploadPostImage(file: File): Promise<UploadedImage> {
  const form = new FormData();
  form.append("file", file);
  return (await read(client.posts.images.$post({}, { init: { body: form, credentials: "same-origin" } }))).image;
}
