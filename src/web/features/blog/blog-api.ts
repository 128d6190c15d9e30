// The Blog screen's view of /api/posts and /api/onboarding: one place knows the wire shape.
import { useQuery } from "@tanstack/react-query";
import type { Post, PostCreate, PostUpdate } from "../../../shared/schemas/post.ts";
import { fetchOnboardingState, ONBOARDING_STATE_KEY } from "../../lib/account-state.ts";
import { api } from "../../lib/api.ts";

export type { Post } from "../../../shared/schemas/post.ts";

export const POSTS_KEY = ["posts"] as const;

export function usePosts() {
  return useQuery({
    queryKey: POSTS_KEY,
    queryFn: async () => (await api<{ posts: Post[] }>("/api/posts")).posts,
  });
}

/** The site's subdomain, for the 'View on site' link; null until onboarding made a site. */
export function useSubdomain() {
  return useQuery({
    queryKey: ONBOARDING_STATE_KEY,
    queryFn: fetchOnboardingState,
    select: (d) => d.website?.subdomain || null,
  });
}

export async function createPost(body: PostCreate): Promise<Post> {
  return (await api<{ post: Post }>("/api/posts", { method: "POST", json: body })).post;
}

export async function updatePost(id: string, body: PostUpdate): Promise<Post> {
  return (await api<{ post: Post }>(`/api/posts/${encodeURIComponent(id)}`, { method: "PATCH", json: body })).post;
}

export async function deletePost(id: string): Promise<void> {
  await api<null>(`/api/posts/${encodeURIComponent(id)}`, { method: "DELETE" });
}
