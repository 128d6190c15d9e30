export { BioPage } from "./bio-page.tsx";
