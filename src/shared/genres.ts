// Suggestions for an author's main genre (any text is accepted): the wizard and the Bio screen.
export const GENRES = [
  "Fiction",
  "Fantasy",
  "Science Fiction",
  "Romance",
  "Mystery",
  "Thriller",
  "Historical Fiction",
  "Horror",
  "Young Adult",
  "Children's",
  "Literary Fiction",
  "Non-fiction",
  "Memoir",
  "Poetry",
];
