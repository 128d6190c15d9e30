// The Bio screen's view of /api/profile and /api/onboarding: one place knows the wire shape.
import { useQuery } from "@tanstack/react-query";
import type { Profile, ProfileUpdate } from "../../../shared/schemas/profile.ts";
import { fetchOnboardingState, ONBOARDING_STATE_KEY } from "../../lib/account-state.ts";
import { client, read } from "../../lib/api.ts";

export type { Profile } from "../../../shared/schemas/profile.ts";

export const PROFILE_KEY = ["profile"] as const;

export function useProfile() {
  return useQuery({
    queryKey: PROFILE_KEY,
    queryFn: async () => (await read(client.profile.$get())).profile,
  });
}

/** The site's subdomain, for the preview link; null until onboarding made a site. */
export function useSubdomain() {
  return useQuery({
    queryKey: ONBOARDING_STATE_KEY,
    queryFn: fetchOnboardingState,
    select: (d) => d.website?.subdomain || null,
  });
}

export async function saveProfile(body: ProfileUpdate): Promise<Profile> {
  return (await read(client.profile.$patch({ json: body }))).profile;
}
