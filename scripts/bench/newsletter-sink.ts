// A bare SMTP sink in its own process for bench:newsletter: accepts every message, keeps a count.
import { SMTPServer } from "smtp-server";

let received = 0;
const server = new SMTPServer({
  authOptional: true,
  disabledCommands: ["STARTTLS"],
  logger: false,
  onData(stream, _session, callback) {
    stream.on("data", () => {});
    stream.on("end", () => {
      received++;
      callback();
    });
  },
});
server.listen(Number(process.argv[2]), "127.0.0.1", () => process.send?.("ready"));
process.on("message", () => process.send?.({ received }));
