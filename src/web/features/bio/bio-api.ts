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
