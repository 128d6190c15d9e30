// The Bio screen's view of /api/profile: one place knows the wire shape.
import { useQuery } from "@tanstack/react-query";
import type { Profile, ProfileUpdate } from "../../../shared/schemas/profile.ts";
import { client, fileUpload, readField } from "../../lib/api.ts";

export type { Profile } from "../../../shared/schemas/profile.ts";

export const PROFILE_KEY = ["profile"] as const;

export function useProfile() {
  return useQuery({ queryKey: PROFILE_KEY, queryFn: () => readField(client.profile.$get(), "profile") });
}

export const saveProfile = (body: ProfileUpdate): Promise<Profile> =>
  readField(client.profile.$patch({ json: body }), "profile");

export const uploadPhoto = (file: File): Promise<Profile> =>
  readField(client.profile.photo.$post({}, fileUpload(file)), "profile");

export const removePhoto = (): Promise<Profile> => readField(client.profile.photo.$delete(), "profile");
