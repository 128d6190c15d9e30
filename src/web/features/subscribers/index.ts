export { SubscribersPage } from "./subscribers-page.tsx";
