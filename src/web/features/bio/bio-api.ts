// The Bio screen's view of /api/profile: one place knows the wire shape.
import { useQuery } from "@tanstack/react-query";
import type { Profile, ProfileUpdate } from "../../../shared/schemas/profile.ts";
import { client, read } from "../../lib/api.ts";

export type { Profile } from "../../../shared/schemas/profile.ts";

export const PROFILE_KEY = ["profile"] as const;

export function useProfile() {
  return useQuery({
    queryKey: PROFILE_KEY,
    queryFn: async () => (await read(client.profile.$get())).profile,
  });
}

export async function saveProfile(body: ProfileUpdate): Promise<Profile> {
  return (await read(client.profile.$patch({ json: body }))).profile;
}

/** Multipart (the browser sets the boundary): the form is the request's own body. */
export async function uploadPhoto(file: File): Promise<Profile> {
  const form = new FormData();
  form.append("file", file);
  return (await read(client.profile.photo.$post({}, { init: { body: form, credentials: "same-origin" } }))).profile;
}

export async function removePhoto(): Promise<Profile> {
  return (await read(client.profile.photo.$delete())).profile;
}
