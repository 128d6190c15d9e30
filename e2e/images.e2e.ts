// Pictures in the browser: the author uploads a photo on Bio, a hero image on Home Page and a
// picture inside a post (with its description), sees each previewed, and readers see them on the
// public site in sizes; a file that is not a picture is refused on the spot; removing works.
import sharp from "sharp";
import { expect, it } from "vitest";
import { browserDescribe, createAuthorAccount, newPage, setupE2E, signInThroughUi } from "./fixtures.ts";

const e = setupE2E();

const jpeg = (width: number, height: number) =>
  sharp({ create: { width, height, channels: 3, background: { r: 20, g: 110, b: 150 } } })
    .jpeg()
    .toBuffer();

browserDescribe("uploaded pictures", () => {
  it("photo on Bio, hero on Home Page, and a described picture in a post", async () => {
    const author = await createAuthorAccount(e.server);
    const page = await newPage(e);
    await signInThroughUi(page, author.email);
    await page.waitForURL((url) => url.pathname === "/dashboard");
    const site = await page.context().newPage();
    const origin = `http://${author.subdomain}.localhost:${e.server.port}`;

    // Photo: a text file is refused before anything is sent; a JPEG is uploaded and previewed.
    await page.goto("/dashboard/bio");
    const photo = page.getByLabel("Photo", { exact: true });
    await photo.setInputFiles({ name: "notes.txt", mimeType: "text/plain", buffer: Buffer.from("hello") });
    await page.getByRole("alert").filter({ hasText: "Please select an image file" }).waitFor();
    await photo.setInputFiles({ name: "me.jpg", mimeType: "image/jpeg", buffer: await jpeg(900, 1200) });
    await page.getByText("Photo uploaded").waitFor();
    await page.getByRole("img", { name: "Photo preview" }).waitFor();
    expect(await page.getByLabel("Or link to a photo").count()).toBe(0);
    // Saving the rest of the Bio keeps the photo.
    await page.getByLabel("Author tagline").fill("Sea stories");
    await page.getByRole("button", { name: "Save Bio" }).click();
    await page.getByText("Bio updated successfully!").waitFor();
    await site.goto(`${origin}/about`);
    const portrait = site.getByRole("img", { name: /^Portrait of / });
    expect(await portrait.getAttribute("srcset")).toMatch(/-200\.webp 200w, .*-400\.webp 400w, .*-800\.webp 800w$/);
    expect(await portrait.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0)).toBe(true);

    // Hero image.
    await page.goto("/dashboard/home");
    await page.getByLabel(/^Hero: full-screen image/).check();
    await page.getByLabel("Hero image", { exact: true }).setInputFiles({
      name: "coast.jpg",
      mimeType: "image/jpeg",
      buffer: await jpeg(2000, 900),
    });
    await page.getByText("Hero image uploaded").waitFor();
    await page.getByRole("button", { name: "Save Home Page" }).click();
    await page.getByText("Home page settings updated successfully!").waitFor();
    await site.goto(`${origin}/`);
    const hero = site.locator("section.hero");
    const background = () => hero.evaluate((el) => getComputedStyle(el).backgroundImage);
    // A 1280-pixel-wide window gets the 1280 variant; a phone the 768 one.
    expect(await background()).toMatch(/\/uploads\/heroes\/.*-1280\.webp/);
    await site.setViewportSize({ width: 390, height: 800 });
    expect(await background()).toMatch(/\/uploads\/heroes\/.*-768\.webp/);
    await site.setViewportSize({ width: 1280, height: 900 });

    // A picture in a post: the description is asked for, then it uploads and goes in.
    await page.goto("/dashboard/blog");
    await page.getByRole("button", { name: "New Post" }).first().click();
    await page.getByLabel("Title").fill("The harbour at dusk");
    await page.getByRole("textbox", { name: "Content" }).click();
    await page.keyboard.type("Taken from the pier.");
    await page.getByRole("button", { name: "Insert image" }).click();
    await page.getByLabel("Upload", { exact: true }).setInputFiles({
      name: "dusk.jpg",
      mimeType: "image/jpeg",
      buffer: await jpeg(1600, 1000),
    });
    await page.getByRole("button", { name: "Insert", exact: true }).click();
    await page.getByText("Please describe the image for readers who cannot see it").waitFor();
    await page.getByLabel("Alt text").fill("Boats moored at dusk");
    await page.getByRole("button", { name: "Insert", exact: true }).click();
    await page.getByRole("textbox", { name: "Content" }).getByRole("img", { name: "Boats moored at dusk" }).waitFor();
    await page.getByRole("button", { name: "Create Post" }).click();
    await page.getByText("Post created successfully!").waitFor();
    await site.goto(`${origin}/blog/the-harbour-at-dusk`);
    const picture = site.getByRole("img", { name: "Boats moored at dusk" });
    expect(await picture.getAttribute("srcset")).toMatch(/-640\.webp 640w, .*-1280\.webp 1280w$/);
    expect(await picture.getAttribute("loading")).toBe("lazy");

    // The photo removed: About shows initials again.
    await page.goto("/dashboard/bio");
    await page.getByRole("button", { name: "Remove photo" }).click();
    await page.getByText("Photo removed").waitFor();
    await page.getByLabel("Or link to a photo").waitFor();
    await site.goto(`${origin}/about`);
    expect(await site.getByRole("img", { name: /^Portrait of / }).count()).toBe(0);
  });
});
