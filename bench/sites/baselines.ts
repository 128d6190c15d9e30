// The two baselines every bench:sites figure is compared with, both sending the identical bytes
// of the page under test: a bare Node `http` server, and nginx serving them as a static file.
import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { connect } from "node:net";
import { basename, dirname, join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";

const BARE_SERVER = `
const http = require("node:http");
const body = require("node:fs").readFileSync(process.env.BODY_FILE);
http
  .createServer((_req, res) => {
    res.writeHead(200, { "content-type": process.env.BODY_TYPE });
    res.end(body);
  })
  .listen(Number(process.env.PORT), "127.0.0.1", () => console.log("listening"));
`;

/** A bare Node http server in its own process (like the app, so neither shares wrk's core) answering every request with the file's bytes. */
export function startBare(bodyFile: string, contentType: string, port: number) {
  const child = spawn(process.execPath, ["-e", BARE_SERVER], {
    env: { ...process.env, BODY_FILE: bodyFile, BODY_TYPE: contentType, PORT: String(port) },
    stdio: ["ignore", "pipe", "inherit"],
  });
  return new Promise<ChildProcess>((ok, fail) => {
    child.stdout?.once("data", () => ok(child));
    child.once("exit", (code) => fail(new Error(`bare server exited with ${code}`)));
  });
}

const NGINX = "/usr/sbin/nginx";

/** nginx from Debian (nginx-light), installed with apt-get when missing; why not, when it cannot be. */
function ensureNginx(): string | undefined {
  if (existsSync(NGINX)) return undefined;
  console.log("installing nginx-light (apt-get)…");
  const r = spawnSync("sh", ["-c", "apt-get update -qq && apt-get install -y -qq nginx-light"], { stdio: "inherit" });
  if (r.status !== 0 || !existsSync(NGINX)) return "nginx is not installed and `apt-get install nginx-light` failed";
  return undefined;
}

const portOpen = (port: number) =>
  new Promise<boolean>((ok) => {
    const s = connect(port, "127.0.0.1");
    s.once("connect", () => {
      s.destroy();
      ok(true);
    });
    s.once("error", () => ok(false));
  });

/**
 * nginx in the foreground (a child of this process, `daemon off`), one worker (as root when run as
 * root: the temporary folder is private, and nginx's workers would otherwise run as nobody), with its own
 * configuration, pid file, logs and temporary directories under `dir`, serving `bodyFile` at
 * every path with the page's content type. Resolves with the process, or with why it cannot run.
 */
export async function startNginx(
  dir: string,
  bodyFile: string,
  contentType: string,
  port: number,
): Promise<ChildProcess | string> {
  const missing = ensureNginx();
  if (missing) return missing;
  const root = join(dir, "nginx");
  for (const d of ["logs", "tmp", "www"]) mkdirSync(join(root, d), { recursive: true });
  const conf = join(root, "nginx.conf");
  writeFileSync(
    conf,
    `daemon off;
${process.getuid?.() === 0 ? "user root;\n" : ""}worker_processes 1;
pid ${root}/nginx.pid;
error_log ${root}/logs/error.log warn;
events { worker_connections 4096; }
http {
  access_log off;
  sendfile on;
  tcp_nopush on;
  keepalive_requests 1000000;
  client_body_temp_path ${root}/tmp/body;
  proxy_temp_path ${root}/tmp/proxy;
  fastcgi_temp_path ${root}/tmp/fastcgi;
  uwsgi_temp_path ${root}/tmp/uwsgi;
  scgi_temp_path ${root}/tmp/scgi;
  types { }
  default_type "${contentType}";
  server {
    listen 127.0.0.1:${port};
    location / { root ${dirname(bodyFile)}; try_files /${basename(bodyFile)} =404; }
  }
}
`,
  );
  const child = spawn(NGINX, ["-p", root, "-c", conf, "-e", join(root, "logs/error.log")], {
    stdio: ["ignore", "inherit", "inherit"],
  });
  let exited = false;
  child.once("exit", () => {
    exited = true;
  });
  for (let i = 0; i < 100 && !exited; i++) {
    if (await portOpen(port)) return child;
    await sleep(50);
  }
  child.kill("SIGTERM");
  return `nginx did not start (see ${root}/logs/error.log)`;
}
