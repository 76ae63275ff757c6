import { execFile } from "node:child_process";
import { createRequire } from "node:module";

export type NuMessage = { type: string; message: string; extract?: string };

/** The Nu Html Checker (vnu-jar) on a document, read from standard input: its errors. */
export async function nuErrors(html: string): Promise<string[]> {
  const jar = String(createRequire(import.meta.url)("vnu-jar"));
  const output = await new Promise<string>((resolve, reject) => {
    const child = execFile("java", ["-jar", jar, "--format", "json", "--stdout", "--exit-zero-always", "-"], { maxBuffer: 16 * 1024 * 1024 }, (error, stdout) =>
      error ? reject(error) : resolve(stdout),
    );
    child.stdin!.end(html);
  });
  return (JSON.parse(output) as { messages: NuMessage[] }).messages.filter((message) => message.type === "error").map((message) => `${message.message} ${message.extract ?? ""}`);
}
