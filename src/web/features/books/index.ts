// The books feature's public face: the dashboard section and the two book-form routes.
export { AddBookPage } from "./add-book-page.tsx";
export { BooksSection } from "./books-section.tsx";
export { EditBookPage } from "./edit-book-page.tsx";
