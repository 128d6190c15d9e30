export { BlogPage } from "./blog-page.tsx";
