export { NewslettersPage } from "./newsletters-page.tsx";
