import { BioPage } from "../../features/bio/index.ts";

export function BioRoute() {
  return <BioPage />;
}
