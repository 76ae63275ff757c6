import { spawn, spawnSync } from "node:child_process";
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { connect } from "node:net";
import path from "node:path";

const ROOT = path.resolve(import.meta.dirname, "../../..");
export const SITE_TEMPLATE = path.join(ROOT, "deploy/nginx/patriot-investor.conf.template");
export const PROXY_SNIPPET = path.join(ROOT, "deploy/nginx/proxy-to-app.conf");
const HEADER_STYLES_TEMPLATE = path.join(import.meta.dirname, "header-styles.conf.template");

/** Debian's nginx; CI installs it (.ci/run) as it does Chromium. */
export const NGINX = process.env.NGINX_PATH ?? "/usr/sbin/nginx";

/**
 * Fills in `${NAME}` for the names given and leaves everything else (nginx's own `$host`) alone,
 * as the nginx image's envsubst step does for the variables defined in its environment.
 */
export function fillTemplate(text: string, values: Record<string, string>) {
  return text.replace(/\$\{([A-Z_]+)\}/g, (whole, name: string) => values[name] ?? whole);
}

export type KeyType = "ec" | "rsa";

const KEY_OPTIONS: Record<KeyType, string[]> = {
  ec: ["-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1"],
  rsa: ["-newkey", "rsa:2048"],
};

/** A self-signed certificate for the tests' host name, made for this run (valid two days). */
export function makeCertificate(dir: string, host: string, keyType: KeyType = "ec") {
  const certificate = path.join(dir, "tls.crt");
  const key = path.join(dir, "tls.key");
  const made = spawnSync(
    "openssl",
    ["req", "-x509", ...KEY_OPTIONS[keyType], "-nodes", "-days", "2", "-subj", `/CN=${host}`,
      "-addext", `subjectAltName=DNS:${host},IP:127.0.0.1`, "-keyout", key, "-out", certificate],
    { encoding: "utf8" },
  );
  if (made.status !== 0) throw new Error(`openssl could not make the test certificate:\n${made.stderr}`);
  return { certificate, key };
}

export type ProxyPorts = { https: number; http: number; internalHost: number; forwarded: number };

/**
 * nginx in front of the app processes, from the shipped template (deploy/nginx) plus the two other
 * header styles, in a folder of its own. Resolves once every port accepts connections.
 * `keyType`: the certificate's key (EC by default; the TLS scan uses RSA, which more cipher
 * suites apply to). `siteTemplate`: another version of the shipped template's text (benchmarks
 * compare with an earlier one).
 */
export async function startProxy(options: { dir: string; host: string; ports: ProxyPorts; appPorts: number[]; keyType?: KeyType; siteTemplate?: string }) {
  if (!existsSync(NGINX)) throw new Error(`The browser tests run behind nginx: install Debian's nginx (apt-get install nginx-light) or set NGINX_PATH.`);
  const { dir, host, ports } = options;
  mkdirSync(dir, { recursive: true });
  // nginx's workers run as an unprivileged user when started as root: they write request bodies here.
  chmodSync(dir, 0o755);
  for (const name of ["client_body", "proxy", "fastcgi", "uwsgi", "scgi"]) {
    mkdirSync(path.join(dir, name), { recursive: true });
    chmodSync(path.join(dir, name), 0o777);
  }
  const tls = makeCertificate(dir, host, options.keyType);
  const values = {
    SERVER_NAMES: host,
    HTTPS_PORT: String(ports.https),
    HTTP_PORT: String(ports.http),
    INTERNAL_HOST_PORT: String(ports.internalHost),
    FORWARDED_PORT: String(ports.forwarded),
    TLS_CERTIFICATE: tls.certificate,
    TLS_CERTIFICATE_KEY: tls.key,
    // Self-signed: the certificate is its own root. It names no OCSP responder, so nginx staples
    // nothing and never asks the resolver.
    TLS_TRUSTED_CERTIFICATE: tls.certificate,
    RESOLVER: "127.0.0.1",
    APP_SERVERS: options.appPorts.map((port) => `server 127.0.0.1:${port};`).join(" "),
    PROXY_SNIPPET,
  };
  writeFileSync(path.join(dir, "site.conf"), fillTemplate(options.siteTemplate ?? readFileSync(SITE_TEMPLATE, "utf8"), values));
  writeFileSync(path.join(dir, "header-styles.conf"), fillTemplate(readFileSync(HEADER_STYLES_TEMPLATE, "utf8"), values));
  // The outer part is what the nginx package's own nginx.conf provides in production.
  writeFileSync(
    path.join(dir, "nginx.conf"),
    `worker_processes 1;
daemon off;
pid ${dir}/nginx.pid;
error_log ${dir}/error.log warn;
events { worker_connections 1024; }
http {
    include /etc/nginx/mime.types;
    # As Debian's nginx.conf has it: the shipped template must turn compression off itself.
    gzip on;
    access_log off;
    client_body_temp_path ${dir}/client_body;
    proxy_temp_path ${dir}/proxy;
    fastcgi_temp_path ${dir}/fastcgi;
    uwsgi_temp_path ${dir}/uwsgi;
    scgi_temp_path ${dir}/scgi;
    include ${dir}/site.conf;
    include ${dir}/header-styles.conf;
}
`,
  );
  const checked = spawnSync(NGINX, ["-t", "-q", "-p", dir, "-c", path.join(dir, "nginx.conf")], { encoding: "utf8" });
  if (checked.status !== 0) throw new Error(`nginx refused the test configuration:\n${checked.stderr}`);
  const child = spawn(NGINX, ["-p", dir, "-c", path.join(dir, "nginx.conf")], { stdio: ["ignore", "inherit", "inherit"] });
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  for (const port of [ports.https, ports.http, ports.internalHost, ports.forwarded]) await waitForPort(port, exited);
  return {
    certificate: tls.certificate,
    stop: async () => {
      if (child.exitCode === null) child.kill("SIGQUIT");
      await exited;
    },
  };
}

async function waitForPort(port: number, exited: Promise<void>) {
  let gone = false;
  void exited.then(() => (gone = true));
  const deadline = Date.now() + 10_000;
  for (;;) {
    if (gone) throw new Error("nginx exited before it listened (see its error log above)");
    const open = await new Promise<boolean>((resolve) => {
      const socket = connect(port, "127.0.0.1");
      socket.once("connect", () => (socket.destroy(), resolve(true)));
      socket.once("error", () => resolve(false));
    });
    if (open) return;
    if (Date.now() > deadline) throw new Error(`nginx did not listen on ${port} in time`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
