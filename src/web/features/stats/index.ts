export { StatsPage } from "./stats-page.tsx";
