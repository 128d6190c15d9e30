// Reading other providers' CSV exports on its own: quoting, line ends, delimiters, the email column,
// and the refusals that keep a damaged file from being half-read.
import { describe, expect, it } from "vitest";
import { DomainError } from "../../lib/domain-error.ts";
import { decodeCsv, emailColumn, parseCsv } from "./subscriber-csv.ts";

const tooMany = () => new DomainError("payload_too_large", "too many");
const parse = (text: string, max = 100) => parseCsv(text, max, tooMany);

describe("parseCsv", () => {
  it("reads quotes, doubled quotes, line breaks in quotes and every line end", () => {
    expect(parse('a,b\r\n"x, y","say ""hi"""\n"two\nlines",z\rlast,row')).toEqual([
      { line: 1, cells: ["a", "b"] },
      { line: 2, cells: ["x, y", 'say "hi"'] },
      { line: 3, cells: ["two\nlines", "z"] },
      { line: 5, cells: ["last", "row"] },
    ]);
  });

  it("skips blank lines, keeps empty cells, and takes the header's delimiter", () => {
    expect(parse("email\n\n\na@example.com\n,\n")).toEqual([
      { line: 1, cells: ["email"] },
      { line: 4, cells: ["a@example.com"] },
    ]);
    expect(parse("name;email\nAnn;a@example.com")).toEqual([
      { line: 1, cells: ["name", "email"] },
      { line: 2, cells: ["Ann", "a@example.com"] },
    ]);
    expect(parse("name\temail\nAnn\ta@example.com")[1]?.cells).toEqual(["Ann", "a@example.com"]);
    expect(parse('"a,b";email\n"x;y";z@example.com')[1]?.cells).toEqual(["x;y", "z@example.com"]);
  });

  it("refuses an unclosed quote and text after a closing quote, naming the line", () => {
    expect(() => parse('email\n"a@example.com\nb@example.com')).toThrow(/line 2: a quote is never closed/);
    expect(() => parse('email\n"a"b\n')).toThrow(/line 2: text after a closing quote/);
  });

  it("stops as soon as there are more rows than allowed", () => {
    expect(() => parse("email\na\nb\nc\n", 2)).toThrow("too many");
    expect(parse("email\na\nb\n", 2)).toHaveLength(3);
  });
});

describe("decodeCsv", () => {
  it("drops the byte-order mark, reads Windows-1252, refuses binary", () => {
    expect(decodeCsv(new Uint8Array([0xef, 0xbb, 0xbf, 0x61]))).toBe("a");
    expect(decodeCsv(new Uint8Array([0x63, 0x61, 0x66, 0xe9]))).toBe("café");
    expect(decodeCsv(new Uint8Array([0xff, 0xfe, 0x61, 0x00]))).toBeNull();
  });
});

describe("emailColumn", () => {
  it("finds the providers' names for it, and nothing else", () => {
    expect(emailColumn(["First Name", "Email Address", "Last Name"])).toBe(1);
    expect(emailColumn(["first_name", "email_address"])).toBe(1);
    expect(emailColumn(["E-mail", "name"])).toBe(0);
    expect(emailColumn(["EMAIL", "email_address"])).toBe(0);
    expect(emailColumn(["email_status", "name"])).toBe(-1);
    expect(emailColumn([])).toBe(-1);
  });
});
