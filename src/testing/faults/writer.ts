// Content created through the HTTP API in a loop, keeping count of what the API acknowledged,
// so that afterwards every acknowledged write can be looked for.
export type WriterStats = { attempted: number; acknowledged: number; refused: number };

export class Writer {
  /** Post id → title, for every 201 the API answered. */
  readonly acknowledged = new Map<string, string>();
  attempted = 0;
  /** Answers other than 201, and requests that got no answer (server down, connection cut). */
  refused = 0;
  private running = false;
  private loops: Promise<void>[] = [];
  private seq = 0;

  constructor(
    private readonly base: string,
    private readonly cookie: string,
    private readonly label: string,
  ) {}

  start(concurrency = 3): void {
    this.running = true;
    for (let i = 0; i < concurrency; i++) this.loops.push(this.loop());
  }

  async stop(): Promise<void> {
    this.running = false;
    await Promise.all(this.loops);
    this.loops = [];
  }

  /** One write; true when the API acknowledged it. */
  async writeOnce(): Promise<boolean> {
    const title = `${this.label} #${++this.seq}`;
    this.attempted++;
    try {
      const res = await fetch(`${this.base}/api/posts`, {
        method: "POST",
        headers: { origin: this.base, cookie: this.cookie, "content-type": "application/json" },
        body: JSON.stringify({ title, content: "<p>Written during a fault.</p>" }),
        signal: AbortSignal.timeout(15_000),
      });
      const body = (await res.json().catch(() => null)) as { post?: { id: string } } | null;
      if (res.status === 201 && body?.post?.id) {
        this.acknowledged.set(body.post.id, title);
        return true;
      }
    } catch {
      // No answer: the write may or may not have happened, and no one was told it did.
    }
    this.refused++;
    return false;
  }

  /** Waits until a write is acknowledged again; the time it took, in ms. */
  async recovered(timeoutMs = 60_000): Promise<number> {
    const started = Date.now();
    while (Date.now() - started < timeoutMs) {
      if (await this.writeOnce()) return Date.now() - started;
      await new Promise((r) => setTimeout(r, 200));
    }
    throw new Error(`no write acknowledged within ${timeoutMs / 1000} s`);
  }

  /** Acknowledged writes the API no longer has. */
  async lost(): Promise<string[]> {
    const res = await fetch(`${this.base}/api/posts`, {
      headers: { cookie: this.cookie },
      signal: AbortSignal.timeout(30_000),
    });
    if (res.status !== 200) throw new Error(`listing posts failed: ${res.status} ${await res.text()}`);
    const { posts } = (await res.json()) as { posts: { id: string; title: string }[] };
    const present = new Map(posts.map((p) => [p.id, p.title]));
    return [...this.acknowledged].filter(([id, title]) => present.get(id) !== title).map(([, title]) => title);
  }

  stats(): WriterStats {
    return { attempted: this.attempted, acknowledged: this.acknowledged.size, refused: this.refused };
  }

  private async loop(): Promise<void> {
    while (this.running) {
      // Down or refusing: try again soon, without spinning.
      if (!(await this.writeOnce())) await new Promise((r) => setTimeout(r, 100));
    }
  }
}
