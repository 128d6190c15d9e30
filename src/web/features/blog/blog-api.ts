// The Blog screen's view of /api/posts: one place knows the wire shape.
import { useQuery } from "@tanstack/react-query";
import type { Post, PostCreate, PostUpdate } from "../../../shared/schemas/post.ts";
import type { UploadedImage } from "../../../shared/schemas/uploads.ts";
import { client, fileUpload, read, readField } from "../../lib/api.ts";

export type { Post } from "../../../shared/schemas/post.ts";

export const POSTS_KEY = ["posts"] as const;

export function usePosts() {
  return useQuery({ queryKey: POSTS_KEY, queryFn: () => readField(client.posts.$get(), "posts") });
}

const post = client.posts[":id"];

export const createPost = (body: PostCreate): Promise<Post> => readField(client.posts.$post({ json: body }), "post");

export const updatePost = (id: string, body: PostUpdate): Promise<Post> =>
  readField(post.$patch({ param: { id }, json: body }), "post");

export async function deletePost(id: string): Promise<void> {
  await read(post.$delete({ param: { id } }));
}

export const uploadPostImage = (file: File): Promise<UploadedImage> =>
  readField(client.posts.images.$post({}, fileUpload(file)), "image");
